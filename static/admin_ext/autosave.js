/*
 * Unsaved text survives a closed tab or a crash: the story form is copied to this
 * browser's localStorage as the editor types, and offered back when the story is
 * opened again. Nothing of it is ever sent to the server: restoring only fills the
 * form, and only the editor's Save sends it.
 *
 * - One draft per user and story ("new" for the add form), holding the version the
 *   form was opened at; restored, that version goes back into the form, so saving
 *   merges with whatever was saved meanwhile, as any save based on an older version.
 * - A successful save clears the draft: the server answers it with a cookie naming
 *   the draft (ArticleAdmin.response_add / response_change), read here on whatever
 *   admin page comes next. A refused save leaves the draft as it is.
 * - A draft is what its editor typed, on their own machine; the admin already shows
 *   them a pseudonym wherever they may not read a legal name. Drafts are forgotten
 *   after a week, and all of them when someone logs out of this browser, which may
 *   be a shared newsroom computer.
 */
(function () {
  "use strict";

  var PREFIX = "newsroom.draft.";
  var SAVED_COOKIE = "newsroom_draft_saved";
  var KEEP_MS = 7 * 24 * 60 * 60 * 1000;
  var DELAY_MS = 800;
  // Rows Django's formsets count and number themselves; the CSRF token is new
  // for each page. Hidden fields other than those below are the server's own.
  var SKIPPED = /(^csrfmiddlewaretoken$|-(TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS$|__prefix__)/;
  // The version the form was opened at, the key of a post placed before it was
  // saved, and each inline row's id (to find the row again; never restored).
  var HIDDEN_KEPT = /(^base_version$|-placement_key$|-\d+-id$)/;

  function storage() {
    try {
      return window.localStorage;
    } catch (e) {
      return null; // storage refused (private mode, policy): no autosave
    }
  }

  function read(store, key) {
    try {
      return JSON.parse(store.getItem(key));
    } catch (e) {
      return null;
    }
  }

  function forgetOld(store) {
    var now = Date.now();
    for (var i = store.length - 1; i >= 0; i--) {
      var key = store.key(i);
      if (key && key.indexOf(PREFIX) === 0) {
        var draft = read(store, key);
        if (!draft || !(now - draft.savedAt < KEEP_MS)) store.removeItem(key);
      }
    }
  }

  function forgetAll(store) {
    for (var i = store.length - 1; i >= 0; i--) {
      var key = store.key(i);
      if (key && key.indexOf(PREFIX) === 0) store.removeItem(key);
    }
  }

  function forgetSaved(store) {
    var match = document.cookie.match(new RegExp("(?:^|; )" + SAVED_COOKIE + "=([^;]*)"));
    if (!match) return;
    var saved = decodeURIComponent(match[1]);
    store.removeItem(PREFIX + saved);
    try {
      window.sessionStorage.removeItem("newsroom.submitted." + saved);
    } catch (e) { /* nothing was flagged then */ }
    document.cookie = SAVED_COOKIE + "=; Max-Age=0; Path=/admin/; SameSite=Strict";
  }

  // ------------------------------------------------------------ the form as data

  function kept(element) {
    if (!element.name || SKIPPED.test(element.name) || element.disabled) return false;
    var type = element.type;
    if (type === "file" || type === "password" || type === "submit" || type === "button") {
      return false;
    }
    if (type === "hidden") return HIDDEN_KEPT.test(element.name);
    return element.closest(".empty-form") === null;
  }

  function snapshot(form) {
    var fields = {};
    Array.prototype.forEach.call(form.elements, function (element) {
      if (!kept(element)) return;
      if (element.type === "checkbox" || element.type === "radio") {
        fields[element.name + "=" + element.value] = { checked: element.checked };
      } else if (element.tagName === "SELECT") {
        fields[element.name] = {
          options: Array.prototype.filter
            .call(element.options, function (o) { return o.selected; })
            .map(function (o) { return [o.value, o.text]; }),
        };
      } else {
        fields[element.name] = { value: element.value };
      }
    });
    return fields;
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  // ------------------------------------------------------------ restoring

  // An inline row's field: "<formset>-<row>-<field>".
  var ROW = /^(.+)-(\d+)-([^-]+)$/;

  // Which row of the draft each row of the form takes back: a saved row by its id
  // (rows may have moved, or gone, since the draft was typed), a new one into a new
  // row of the form, added when there are not enough.
  function rowsFor(form, fields) {
    var draftRows = {};
    Object.keys(fields).forEach(function (name) {
      var match = name.match(ROW);
      if (match && form.elements[match[1] + "-TOTAL_FORMS"]) {
        draftRows[match[1] + "-" + match[2]] = match[1];
      }
    });
    var into = {};
    Object.keys(draftRows).forEach(function (row) {
      var group = draftRows[row];
      var id = fields[row + "-id"] ? fields[row + "-id"].value : "";
      var target = id ? savedRow(form, group, id) : newRow(form, group, row, into);
      if (target) into[target] = row;
    });
    return into;
  }

  function savedRow(form, group, id) {
    var total = Number(form.elements[group + "-TOTAL_FORMS"].value);
    for (var i = 0; i < total; i++) {
      var field = form.elements[group + "-" + i + "-id"];
      if (field && field.value === id) return group + "-" + i;
    }
    return null; // deleted since: its text has nowhere to go back
  }

  function newRow(form, group, row, into) {
    var same = form.elements[row + "-id"];
    if (same && !same.value && !into[row]) return row;
    var total = form.elements[group + "-TOTAL_FORMS"];
    var add = document.querySelector("#" + group + "-group .add-row a");
    if (!add) return null;
    var before = total.value;
    add.click(); // Django's inlines.js adds the row
    return total.value === before ? null : group + "-" + before;
  }

  // The draft's name for the form's field `name`, or null when nothing goes there.
  function draftName(form, name, into) {
    var match = name.match(ROW);
    if (!match || !form.elements[match[1] + "-TOTAL_FORMS"]) return name;
    if (match[3] === "id") return null; // a row's id is the server's, never restored
    var row = into[match[1] + "-" + match[2]];
    return row ? row + "-" + match[3] : null;
  }

  function setBody(textarea, html) {
    var holder = textarea.closest(".prose-editor");
    var view = holder && holder.querySelector(".ProseMirror[contenteditable]");
    textarea.value = html;
    // Tiptap keeps its editor on the editable element.
    if (view && view.editor) view.editor.commands.setContent(html);
  }

  function setSelect(select, options) {
    var values = options.map(function (o) { return o[0]; });
    options.forEach(function (pair) {
      var exists = Array.prototype.some.call(select.options, function (o) {
        return o.value === pair[0];
      });
      // An autocomplete (select2) holds only the chosen option: bring its label.
      if (!exists) select.add(new Option(pair[1], pair[0]));
    });
    Array.prototype.forEach.call(select.options, function (o) {
      o.selected = values.indexOf(o.value) !== -1;
    });
    if (window.django && window.django.jQuery) window.django.jQuery(select).trigger("change");
  }

  function restore(form, fields) {
    var into = rowsFor(form, fields);
    var bodies = [];
    Array.prototype.forEach.call(form.elements, function (element) {
      if (!kept(element)) return;
      var name = draftName(form, element.name, into);
      if (!name) return;
      var field;
      if (element.type === "checkbox" || element.type === "radio") {
        field = fields[name + "=" + element.value];
        if (field) element.checked = field.checked;
      } else if (element.tagName === "SELECT") {
        field = fields[name];
        if (field) setSelect(element, field.options);
      } else {
        field = fields[name];
        if (!field) return;
        if (element.hasAttribute("data-django-prose-editor-configurable")) {
          bodies.push([element, field.value]);
          return;
        }
        element.value = field.value;
      }
      // "change" only: an "input" on the paste field would send it to be recognized.
      if (field) element.dispatchEvent(new Event("change", { bubbles: true }));
    });
    // Last: a post placed in a body is shown from its row, restored by now.
    bodies.forEach(function (body) {
      setBody(body[0], body[1]);
    });
  }

  // ------------------------------------------------------------ the story form

  function start(store, banner) {
    var form = banner.closest("form");
    var key = PREFIX + banner.dataset.autosaveKey;
    var submittedFlag = "newsroom.submitted." + banner.dataset.autosaveKey;
    var timer = null;
    var paused = false;
    var dirty = false;

    function write() {
      clearTimeout(timer);
      if (paused || !dirty) return;
      dirty = false;
      var base = form.elements.base_version;
      try {
        store.setItem(
          key,
          JSON.stringify({
            savedAt: Date.now(),
            version: base ? base.value : "",
            fields: snapshot(form),
          })
        );
      } catch (e) {
        /* storage full or refused: the form itself still works */
      }
    }

    function typed() {
      dirty = true;
      clearTimeout(timer);
      timer = setTimeout(write, DELAY_MS);
    }

    form.addEventListener("input", typed);
    form.addEventListener("change", typed);
    form.addEventListener("submit", function (event) {
      dirty = true;
      write();
      // Preview opens in another tab: this page stays, nothing was saved.
      if (event.submitter && event.submitter.formTarget === "_blank") return;
      try {
        window.sessionStorage.setItem(submittedFlag, "1");
      } catch (e) { /* the banner may then offer what was just submitted */ }
    });
    window.addEventListener("pagehide", write);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "hidden") write();
    });

    // Just submitted in this tab: the page shows what was sent (refused, since a
    // successful save cleared the draft), so there is nothing to offer back.
    var justSubmitted = false;
    try {
      justSubmitted = window.sessionStorage.getItem(submittedFlag) === "1";
      window.sessionStorage.removeItem(submittedFlag);
    } catch (e) { /* no session storage: offer as usual */ }

    var draft = read(store, key);
    if (justSubmitted || !draft || !draft.fields || same(draft.fields, snapshot(form))) return;

    paused = true; // typing now must not overwrite the draft on offer
    var when = banner.querySelector("[data-autosave-when]");
    try {
      when.textContent = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
        dateStyle: "medium",
        timeStyle: "short",
      }).format(new Date(draft.savedAt));
    } catch (e) {
      when.textContent = new Date(draft.savedAt).toLocaleString();
    }
    var opened = banner.dataset.autosaveVersion;
    banner.querySelector("[data-autosave-older]").hidden = !opened || draft.version === opened;
    banner.hidden = false;

    function settled(message) {
      banner.hidden = true;
      paused = false;
      if (message) {
        message.hidden = false;
        message.focus();
      }
    }

    banner.querySelector("[data-autosave-restore]").addEventListener("click", function () {
      restore(form, draft.fields);
      settled(form.querySelector("[data-autosave-restored]"));
    });
    banner.querySelector("[data-autosave-discard]").addEventListener("click", function () {
      store.removeItem(key);
      settled(null);
    });
  }

  var store = storage();
  if (!store) return;
  forgetSaved(store);
  forgetOld(store);
  document.addEventListener("DOMContentLoaded", function () {
    if (document.querySelector("[data-autosave-forget-all]")) {
      forgetAll(store);
      return;
    }
    var banner = document.querySelector("[data-autosave-key]");
    if (banner) start(store, banner);
  });
})();
