// Small enhancements only; every page works without this file.
(function () {
  "use strict";

  // Escape blurs a revealed graphic image again and returns focus to its warning.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll(".hero__warning[open]").forEach(function (details) {
      details.open = false;
      var summary = details.querySelector("summary");
      if (summary) summary.focus();
    });
  });
})();
