// What the club's pages share: their words (the server hands a German, or other, page its catalog as
// window.WORDS), a message's values filled in, and an element made with its attributes and children.
"use strict";
const _ = (words) => (window.WORDS || {})[words] || words;
const fmt = (words, values) => words.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
};
