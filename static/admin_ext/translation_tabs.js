/*
 * Tabs for modeltranslation's per-language fields (Arabic | English), in plain
 * JavaScript: no jQuery UI and nothing fetched from a CDN. Without this script every
 * language's field stays visible, so the form works all the same.
 *
 * modeltranslation marks each translated widget with classes such as
 * "mt mt-field-headline-ar mt-default"; rows of the same field are grouped and only
 * the chosen language's row is shown. Choosing a language switches every group.
 */
(function () {
  "use strict";

  var PREFIX = "mt-field-";

  function languageOf(widget) {
    for (var i = 0; i < widget.classList.length; i++) {
      var cls = widget.classList[i];
      if (cls.indexOf(PREFIX) === 0) {
        return cls.slice(cls.lastIndexOf("-") + 1);
      }
    }
    return null;
  }

  function languageName(code) {
    var locale = document.documentElement.lang || code;
    try {
      var name = new Intl.DisplayNames([locale], { type: "language" }).of(code);
      return name || code.toUpperCase();
    } catch (e) {
      return code.toUpperCase();
    }
  }

  function hasErrors(row) {
    return row.classList.contains("errors") || row.querySelector(".errorlist") !== null;
  }

  function collectGroups(form) {
    var groups = [];
    var byKey = {};
    form.querySelectorAll(".mt").forEach(function (widget) {
      // Inline rows keep every language visible; tabs there would be too cramped.
      if (widget.closest(".inline-group")) {
        return;
      }
      var language = languageOf(widget);
      var row = widget.closest(".form-row");
      if (!language || !row || !widget.id) {
        return;
      }
      var key = widget.id.slice(0, widget.id.length - language.length - 1);
      if (!byKey[key]) {
        byKey[key] = { rows: {}, languages: [] };
        groups.push(byKey[key]);
      }
      if (!byKey[key].rows[language]) {
        byKey[key].rows[language] = row;
        byKey[key].languages.push(language);
      }
    });
    return groups.filter(function (group) {
      return group.languages.length > 1;
    });
  }

  function setUp(form) {
    var groups = collectGroups(form);
    if (!groups.length) {
      return;
    }
    var start = groups[0].languages[0];
    var withErrors = null;

    function show(language) {
      groups.forEach(function (group) {
        group.languages.forEach(function (code) {
          var selected = code === language;
          group.rows[code].classList.toggle("mt-tab-hidden", !selected);
          var tab = group.tabs[code];
          tab.setAttribute("aria-selected", selected ? "true" : "false");
          tab.tabIndex = selected ? 0 : -1;
        });
      });
    }

    groups.forEach(function (group) {
      var bar = document.createElement("div");
      bar.className = "mt-tabs";
      bar.setAttribute("role", "tablist");
      group.tabs = {};
      group.languages.forEach(function (code) {
        var tab = document.createElement("button");
        tab.type = "button";
        tab.className = "mt-tab";
        tab.setAttribute("role", "tab");
        tab.lang = code;
        tab.textContent = languageName(code);
        if (hasErrors(group.rows[code])) {
          tab.classList.add("mt-tab-error");
          withErrors = withErrors || code;
        }
        tab.addEventListener("click", function () {
          show(code);
        });
        group.tabs[code] = tab;
        bar.appendChild(tab);
      });
      var first = group.rows[group.languages[0]];
      first.parentNode.insertBefore(bar, first);
    });
    show(withErrors || start);
  }

  function init() {
    document.querySelectorAll("#content-main form").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
