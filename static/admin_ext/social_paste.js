// Fill a social-post inline from what the editor pastes (post URL or embed code).
// The server recognizes the post with the same code the importer uses; saving the
// form fills the fields too, so this is only a convenience.
(function () {
  "use strict";

  function csrfToken(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function statusFor(textarea) {
    var status = textarea.parentNode.querySelector(".paste-status");
    if (!status) {
      status = document.createElement("p");
      status.className = "paste-status help";
      status.setAttribute("role", "status");
      textarea.parentNode.appendChild(status);
    }
    return status;
  }

  function fill(textarea, data) {
    var prefix = textarea.name.replace(/paste$/, "");
    Object.keys(data.fields).forEach(function (name) {
      var field = textarea.form.elements[prefix + name];
      if (field) field.value = data.fields[name];
    });
    statusFor(textarea).textContent = data.messages.join(" ");
  }

  function recognize(textarea) {
    if (!textarea.value.trim()) return;
    var body = new FormData();
    body.append("paste", textarea.value);
    fetch(textarea.dataset.recognizeUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(textarea.form) },
    })
      // 429 (too many pastes) carries its message in the same shape.
      .then(function (response) {
        return response.ok || response.status === 429 ? response.json() : null;
      })
      .then(function (data) { if (data) fill(textarea, data); })
      .catch(function () { /* saving the form still fills the fields */ });
  }

  var timer = null;
  document.addEventListener("input", function (event) {
    var textarea = event.target;
    if (!textarea.matches || !textarea.matches("textarea[data-recognize-url]")) return;
    clearTimeout(timer);
    timer = setTimeout(function () { recognize(textarea); }, 400);
  });
})();
