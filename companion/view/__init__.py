"""Views: what the board shows, computed apart from how it is sent (LED frames, OLED images, pictures)."""
