"""The rules engine: cards, scoring, pegging and the game as a fold of table inputs. Standard library only."""
