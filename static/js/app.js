// Small behaviours the pages share. Loaded as a file so the Content Security Policy needs no
// inline script. Keyboard shortcuts: pages mark buttons with data-key="1".."4" / data-key=" ".
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable);
    if (typing) return;
    const key = event.key === " " ? "space" : event.key;
    const button = document.querySelector('[data-key="' + key + '"]:not([disabled])');
    if (button) {
      event.preventDefault();
      button.click();
    }
  });
})();
