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

// Mock interview clock. The server sends the whole seconds left at render time (never the
// client's clock against a deadline, which may be skewed); the page also shows the deadline as
// text for when this script does not run. At zero the answer forms are disabled (the server
// refuses late answers anyway), and once the grace has passed the page goes to the mock's URL,
// where the server applies the end and shows the report.
(function () {
  "use strict";
  const clock = document.querySelector("[data-countdown]");
  if (!clock) return;
  const secondsLeft = parseInt(clock.getAttribute("data-seconds-left"), 10);
  const graceSeconds = parseInt(clock.getAttribute("data-grace-seconds"), 10) || 0;
  const expiredUrl = clock.getAttribute("data-expired-url");
  if (isNaN(secondsLeft)) return;
  const end = Date.now() + secondsLeft * 1000;
  let timer = null;

  function shown(seconds) {
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const rest = seconds % 60;
    const pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return (hours ? hours + ":" + pad(minutes) : minutes) + ":" + pad(rest);
  }

  function closeForms() {
    document.querySelectorAll("form[data-mock-answer]").forEach(function (form) {
      form.setAttribute("data-closed", "");
      form.querySelectorAll("input, textarea, button").forEach(function (field) { field.disabled = true; });
    });
  }

  function tick() {
    const left = Math.ceil((end - Date.now()) / 1000);
    if (left > 0) {
      clock.textContent = "· " + shown(left) + " left";
      clock.classList.toggle("low", left <= 300);
      return;
    }
    clock.textContent = "· time is up";
    clock.classList.add("over");
    closeForms();
    // Two seconds more than the grace: this clock may run up to a second ahead of the server's.
    if (left <= -(graceSeconds + 2) && expiredUrl) {
      window.clearInterval(timer);
      window.location.assign(expiredUrl);
    }
  }

  tick();
  timer = window.setInterval(tick, 250);
})();

// Sign-up: the browser's time zone goes into a hidden field, so times are shown in the learner's
// zone from the first page (the server checks the name; without this script it is UTC).
(function () {
  "use strict";
  const field = document.querySelector("input[data-detect-timezone]");
  if (!field || field.value) return;
  try {
    field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    field.value = "";
  }
})();

// A table wider than the screen scrolls sideways (app.css); keyboard users need to reach it, so
// such a table takes focus, and only while it does overflow.
(function () {
  "use strict";
  function markScrollableTables() {
    document.querySelectorAll("table").forEach(function (table) {
      const scrolls = table.scrollWidth > table.clientWidth + 1;
      if (scrolls && !table.hasAttribute("tabindex")) {
        table.setAttribute("tabindex", "0");
        table.setAttribute("data-scrolls", "");
      } else if (!scrolls && table.hasAttribute("data-scrolls")) {
        table.removeAttribute("tabindex");
        table.removeAttribute("data-scrolls");
      }
    });
  }
  markScrollableTables();
  window.addEventListener("resize", markScrollableTables);
  document.addEventListener("htmx:afterSettle", markScrollableTables);
})();
