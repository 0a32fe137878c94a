"""Words for people and JSON for clients, made at the edge from the engine's typed facts, in a language handed.

    from companion.i18n import language
    from companion.words.phrases import refusal, note, prompt_words
    from companion.words.count import say

    refusal(err.refusal, language("de"))    # why an input was refused, and what to do instead
    note(event.notes[0], language("en"))     # a claim off the count, muggins taken, the game won at the cap
    prompt_words(state.awaited(), lang)      # what the table waits for
    say(event.score, lang)                   # the count in a player's cadence (count.py)

`saying` says any error raised on purpose (`error_words`: the engine's refusal, the advice's, the settings',
a selection of games'). `phrases` is the one renderer of the game (refusals, notes, prompts, the table's
messages, score and side names, the count), `messages` the table's messages as values (a kind and its facts),
`count` the spoken count's phrasebook, `projection` the state as JSON (`state_json(state, lang=...)`). Beside
them, the advice's reasons and refusals as values with their words (`advice`: the hint, the pro's lay-away;
`review`: a lay-away and the coach's discard review), the statistics' (`statistics`: a game's line, a selection
no game fits, the picture) and the game against the computer's refused settings (`opponents`); the
configuration's problems and where each value comes from (`settings`), what reading a game log found
(`logbook`) and why the page's API refuses a request (`webapi`).
Every function takes the language (where it may be left
out, it is the current one of the edge rendering, `companion.i18n.speaking`).
"""
