// The page's voice: the board's words for each input (the snapshot's `voice.said`, the same the OLED shows),
// said by this browser's own voices (speechSynthesis) when switched on here, in a voice of the board's language
// (the words are the board's, whatever the page speaks).
// A new deal or an undo cuts short what is still being said. The board's own voice is muted from here too.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = "crib-voice";
  const synth = window.speechSynthesis;
  const pageLanguage = (document.documentElement.lang || "en").toLowerCase();
  let heard = null;  // how many utterances the board had made when last heard: those before the page are not said
  let cut = 0;
  let boardMuted = false;

  function voiceFor(lang) {
    const voices = synth ? synth.getVoices() : [];
    const fits = voices.filter((v) => v.lang.toLowerCase().replace("_", "-").startsWith(lang));
    return fits.find((v) => v.localService) || fits[0] || null;
  }

  // The board's words are said in the board's language (`voice.lang`), whatever the page speaks.
  function sayAll(texts, language) {
    const voice = voiceFor(language);
    for (const text of texts) {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = voice ? voice.lang : language;
      if (voice) utterance.voice = voice;
      synth.speak(utterance);
    }
  }

  function hear(snapshot) {
    const said = snapshot.voice;
    if (!said) return;
    const button = $("voice-board");
    button.hidden = !said.board_voice;
    boardMuted = said.muted;
    button.textContent = said.muted ? _("Unmute the board") : _("Mute the board");
    const fresh = heard === null ? [] : said.said.filter(([number]) => number > heard).map(([, text]) => text);
    const stale = heard !== null && said.cut !== cut;
    heard = said.count;
    cut = said.cut;
    if (!synth || !$("voice-page").checked) return;
    if (stale) synth.cancel();
    sayAll(fresh, (said.lang || pageLanguage).toLowerCase());
  }

  const box = $("voice-page");
  if (!synth) {
    box.disabled = true;
    box.parentElement.title = _("this browser has no voices");
  } else {
    box.checked = localStorage.getItem(KEY) === "on";
    box.addEventListener("change", () => {
      localStorage.setItem(KEY, box.checked ? "on" : "off");
      synth.cancel();
      if (box.checked) synth.speak(new SpeechSynthesisUtterance(""));  // a click lets the page speak from now on
    });
  }
  $("voice-board").addEventListener("click", async () => {
    try {
      await Crib.post("/api/entry", { text: boardMuted ? "unmute" : "mute" });
    } catch (problem) {
      const message = $("message");
      message.textContent = problem.message;
      message.classList.add("error");
    }
  });
  Crib.connect(hear);
})();
