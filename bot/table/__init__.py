"""Live Spades tables: model, store, commands, turn clock, publisher; ``service`` wires them."""
