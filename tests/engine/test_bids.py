import pytest

from engine import Bid, BidParseError


@pytest.mark.parametrize(
    ("value", "kind", "n"),
    [
        ("5", "tricks", 5),
        (5, "tricks", 5),
        ("0", "tricks", 0),
        ("nil", "nil", 0),
        ("NIL", "nil", 0),
        ("blind_nil", "blind_nil", 0),
        ("blind nil", "blind_nil", 0),
        ("double nil", "blind_nil", 0),
        ("blind 6", "blind", 6),
        ("Blind-6", "blind", 6),
    ],
)
def test_parse(value: int | str, kind: str, n: int) -> None:
    b = Bid.parse(value)
    assert (b.kind, b.n) == (kind, n)
    assert Bid.parse(b.to_json()) == b
    assert Bid.parse(str(b)) == b


@pytest.mark.parametrize("value", ["-1", -1, "five", "blind", "blind 0", "", True, 2.5])
def test_bad_bids(value: object) -> None:
    with pytest.raises(BidParseError):
        Bid.parse(value)  # type: ignore[arg-type]


def test_forms() -> None:
    assert Bid.parse(4).to_json() == 4
    assert Bid.NIL.to_json() == "nil" and Bid.BLIND_NIL.to_json() == "blind_nil"
    assert Bid.of("blind", 6).to_json() == "blind 6"
    assert [b.label for b in (Bid.tricks(4), Bid.NIL, Bid.BLIND_NIL, Bid.of("blind", 6))] == [
        "4",
        "Nil",
        "Blind nil",
        "Blind 6",
    ]
    assert Bid.NIL.is_nil and Bid.BLIND_NIL.is_nil and not Bid.tricks(0).is_nil
    assert Bid.of("blind", 5).is_blind and not Bid.NIL.is_blind
    assert Bid.tricks(3) is Bid.parse("3")
