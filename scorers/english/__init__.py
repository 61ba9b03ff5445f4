"""English reading: sentences, markdown blocks, clauses and negations, lemmas, word lists, the negation lexicon, quantities and units, language, facts. English-only by design."""
