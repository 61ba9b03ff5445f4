"""English reading: sentences, markdown blocks, clauses and negations, lemmas, word lists, numbers and quantities, language, facts. English-only by design."""
