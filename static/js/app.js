// Small behaviours the pages share. Loaded as a file so the Content Security Policy needs no
// inline script. Every behaviour here is a shortcut: without JavaScript the forms and buttons
// work as they are.
//
// Keyboard shortcuts: pages mark buttons with data-key="1".."4" or a letter; the rating button
// of the automatic grade with data-default (Space or Enter accepts it); the undo button with
// data-key="undo" (Ctrl+Z).
(function () {
  "use strict";

  function isTyping(target) {
    return !!target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" ||
      target.tagName === "SELECT" || target.isContentEditable);
  }

  function press(selector) {
    const button = document.querySelector(selector);
    if (!button || button.disabled) return false;
    button.click();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    const target = event.target;
    const typing = isTyping(target);
    // Ctrl+Z undoes the last rating, except in a text box with text in it, where it undoes typing.
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey &&
        event.key.toLowerCase() === "z") {
      if (typing && target.value) return;
      if (press('[data-key="undo"]')) event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typing) return;
    if (event.key === " " || event.key === "Enter") {
      // A focused control keeps its own Space and Enter; a held key does not rate the next card.
      if (event.repeat || (target.closest && target.closest("button, a, summary, [tabindex]"))) return;
      if (press("[data-default]")) {
        event.preventDefault();
        return;
      }
    }
    const key = event.key === " " ? "space" : event.key.toLowerCase();
    if (press('[data-key="' + key + '"]')) event.preventDefault();
  });

  // An answer form with several boxes: Enter moves to the next box, and only the last box (or
  // Ctrl+Enter anywhere) checks the answers, so a half-filled card is not graded by accident.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.altKey || event.shiftKey) return;
    const box = event.target;
    const form = box && box.form;
    if (!form || box.tagName !== "INPUT" || !form.hasAttribute("data-answer-form")) return;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    const boxes = Array.prototype.slice.call(form.querySelectorAll('input[type="text"]'));
    const index = boxes.indexOf(box);
    if (index >= 0 && index < boxes.length - 1) {
      event.preventDefault();
      boxes[index + 1].focus();
      boxes[index + 1].select();
    }
  });

  // Checking answers with a box left empty asks once: the warning says which, and submitting
  // again checks them as they are. Listening in the capture phase runs this before htmx's own
  // submit listener on the form, which then never hears of the first attempt.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-answer-form")) return;
    if (form.hasAttribute("data-blank-confirmed")) return;
    const boxes = Array.prototype.slice.call(form.querySelectorAll('input[type="text"]'));
    const blank = boxes.filter(function (box) { return !box.value.trim(); });
    if (!blank.length) return;
    event.preventDefault();
    event.stopPropagation();
    form.setAttribute("data-blank-confirmed", "");
    const warning = form.querySelector("[data-blank-warning]");
    if (warning) {
      const which = blank.length === boxes.length ? "Every box is empty" :
        blank.length + " of " + boxes.length + " boxes " + (blank.length === 1 ? "is" : "are") + " empty";
      warning.textContent = which + ": a blank part counts as no answer. Check your answers " +
        "again to submit them as they are.";
      warning.hidden = false;
    }
    blank[0].focus();
  }, true);
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
