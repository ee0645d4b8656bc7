"""What the browser tests check of a page's layout, written once for the phone and the accessibility tests."""

_BROKEN_WORDS = """(selector) => {
  // Every shown word inside `selector` that the browser wrapped across two lines ("Pla|yer", "kenj|i").
  const broken = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement.offsetParent) continue;  // not shown
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""


def broken_words(page, selector: str = "main") -> list[str]:
    """The words the browser broke across two lines inside the elements `selector` finds."""
    return page.evaluate(_BROKEN_WORDS, selector)
