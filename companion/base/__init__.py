"""What every layer stands on: time (clock), the errors of a command (usage), text files a line at a time
(textlines) and the sample deal (demo)."""
