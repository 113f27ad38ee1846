// The live desk posts without reloading the story's page: each form below the
// story (start, pause, end, the entry form, pin, correct, delete) is sent with
// fetch and answered in JSON. A refused or failed save shows its message and
// leaves the text in the form; only a saved entry clears it.
(function () {
  "use strict";

  var desk = document.querySelector("[data-live-desk]");
  if (!desk) return;
  var form = desk.querySelector("[data-desk-form]");
  var list = desk.querySelector("[data-desk-entries]");
  var stateLabel = desk.querySelector("[data-desk-state]");

  function csrfToken(source) {
    var input = source.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function showError(message) {
    if (!form) { window.alert(message); return; }
    var box = form.querySelector("[data-desk-error]");
    box.textContent = message;
    box.hidden = false;
  }

  function clearMessages() {
    if (!form) return;
    form.querySelector("[data-desk-error]").hidden = true;
    form.querySelector("[data-desk-status]").textContent = "";
  }

  function showState(data) {
    if (!data.state) return;
    stateLabel.textContent = data.stateLabel;
    var start = desk.querySelector("[data-desk-start]");
    var pause = desk.querySelector("[data-desk-pause]");
    var end = desk.querySelector("[data-desk-end]");
    if (start) start.hidden = data.state === "live" || data.state === "ended";
    if (pause) pause.hidden = data.state !== "live";
    if (end) end.hidden = data.state === "ended";
    if (form) form.hidden = data.state === "ended";
  }

  function send(target, body, onDone) {
    clearMessages();
    var buttons = target.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    // getAttribute: the state form's buttons are named "action", which would
    // hide the form's own `action` property.
    fetch(target.getAttribute("action"), {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken(target) },
    })
      .then(function (response) {
        return response.json().catch(function () {
          throw new Error(desk.getAttribute("data-failed") || response.statusText);
        });
      })
      .then(function (data) {
        if (!data.ok) {
          showError(data.message);
          return;
        }
        showState(data);
        list.innerHTML = data.entries;
        if (onDone) onDone(data);
        if (form) form.querySelector("[data-desk-status]").textContent = data.message;
      })
      .catch(function () {
        showError(form ? form.getAttribute("data-failed-message") ||
          "Not saved: the connection failed. Your text is still in the form." : "");
      })
      .then(function () {
        buttons.forEach(function (b) { b.disabled = false; });
      });
  }

  // -------------------------------------------------------- the entry form

  function chooseLanguage(code) {
    desk.querySelectorAll("[data-desk-text]").forEach(function (block) {
      block.hidden = block.getAttribute("data-desk-text") !== code;
    });
    form.querySelectorAll("[data-desk-language]").forEach(function (radio) {
      radio.checked = radio.value === code;
    });
  }

  // The text fields are the story body's rich-text editor (django-prose-editor):
  // Tiptap keeps its editor on the editable element, and writes its HTML back
  // to the textarea the form posts.
  function setBody(textarea, html) {
    var holder = textarea.closest(".prose-editor");
    var view = holder && holder.querySelector(".ProseMirror[contenteditable]");
    textarea.value = html;
    if (view && view.editor) view.editor.commands.setContent(html);
  }

  // After a save the form is empty again, in the language the editor writes in.
  function resetForm() {
    var checked = form.querySelector("[data-desk-language]:checked");
    var language = checked ? checked.value : "ar";
    form.reset();
    ["ar", "en"].forEach(function (code) { setBody(form.elements["body_" + code], ""); });
    form.querySelector("[data-desk-entry]").value = "";
    setMode(false);
    chooseLanguage(language);
  }

  function setMode(changing) {
    var legend = form.querySelector("[data-desk-legend]");
    var submit = form.querySelector("[data-desk-submit]");
    legend.textContent = legend.getAttribute(changing ? "data-change-legend" : "data-add-legend");
    submit.textContent = form.getAttribute(changing ? "data-change-label" : "data-add-label");
    form.querySelector("[data-desk-cancel]").hidden = !changing;
    form.querySelector("[data-desk-pin-new]").hidden = changing;
  }

  if (form) {
    form.querySelectorAll("[data-desk-language]").forEach(function (radio) {
      radio.addEventListener("change", function () { chooseLanguage(radio.value); });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      send(form, new FormData(form), resetForm);
    });
    form.querySelector("[data-desk-cancel]").addEventListener("click", function () {
      resetForm();
    });
  }

  // -------------------------------------------------------- the entries

  desk.addEventListener("click", function (event) {
    var edit = event.target.closest("[data-desk-edit]");
    if (!edit || !form) return;
    var item = edit.closest("[data-desk-item]");
    form.querySelector("[data-desk-entry]").value = item.getAttribute("data-desk-item");
    ["ar", "en"].forEach(function (code) {
      form.elements["headline_" + code].value = item.getAttribute("data-headline-" + code);
      setBody(form.elements["body_" + code], item.getAttribute("data-body-" + code));
    });
    if (form.elements.post) form.elements.post.value = item.getAttribute("data-post");
    form.elements.image.value = item.getAttribute("data-image");
    form.elements.is_key_event.checked = item.getAttribute("data-key-event") === "1";
    chooseLanguage(item.getAttribute("data-body-ar") || item.getAttribute("data-headline-ar") ? "ar" : "en");
    setMode(true);
    form.scrollIntoView({ block: "start" });
    var shown = form.querySelector("[data-desk-text]:not([hidden]) .ProseMirror[contenteditable]");
    if (shown) shown.focus();
  });

  // Colleagues post too: the list is read again every 15 s, unless the editor is
  // in it (a correction or a reason being typed is never replaced).
  var entriesUrl = desk.getAttribute("data-entries-url");
  function busy() {
    return list.querySelector("details[open]") || list.contains(document.activeElement);
  }
  window.setInterval(function () {
    if (busy() || document.hidden) return;
    fetch(entriesUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data && !busy()) list.innerHTML = data.entries; })
      .catch(function () { /* the next round tries again */ });
  }, 15000);

  // Start, pause, end, pin, correct, delete: small forms of their own.
  desk.addEventListener("submit", function (event) {
    var target = event.target;
    if (target === form || !target.matches("[data-desk-action]")) return;
    event.preventDefault();
    var body = new FormData(target);
    var button = event.submitter;
    if (button && button.name) body.append(button.name, button.value);
    var question = button && button.getAttribute("data-confirm");
    if (question && !window.confirm(question)) return;
    send(target, body);
  });
})();
