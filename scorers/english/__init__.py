"""English reading: sentences, markdown blocks, clauses and negations, lemmas, word lists, the negation lexicon, numbers and quantities, language, facts. English-only by design."""
