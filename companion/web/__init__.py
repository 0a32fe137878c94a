"""The board in a browser: the web server inside the daemon (`server`), the board drawn as SVG (`board`), what
the page shows (`present`), games against the computer (`computer`) and the statistics page's data
(`history`). The page itself is plain HTML, CSS and JavaScript in `templates/` and `static/`: no build step,
nothing fetched from elsewhere."""
