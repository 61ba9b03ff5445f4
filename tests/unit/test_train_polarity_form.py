"""training.train --polarity-form: the model trains on pairs in the form the scorer gives it."""


def test_polarity_form_writes_both_sides_of_each_training_pair():
    from groundwatch.training.nli_data import Pair
    from groundwatch.training.train import in_polarity_form, parse_args

    assert parse_args([]).polarity_form is False and parse_args(["--polarity-form"]).polarity_form is True
    [pair] = in_polarity_form([Pair("Parking is optional.", "Parking is not mandatory.", 0, "test")])
    assert (pair.premise, pair.hypothesis, pair.label) == ("Parking is not required.", "Parking is not required.", 0)
