"""Advice and computer players: exact discard analysis, the opponent model, pegging hints, three levels of
computer player and self-play between them. Pure (numpy for the analysis); nothing here touches devices."""
