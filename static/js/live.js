// A live coverage keeps itself up to date: every few seconds it asks for the
// coverage's updates (a small JSON answered from the cache, 304 when unchanged),
// shows new entries in place and says how many arrived, politely, to screen
// readers. Without this file the page is complete: a reload shows the latest, and
// "Older updates" is a plain link.
(function () {
  "use strict";

  var section = document.getElementById("live");
  if (!section) return;
  var notice = section.querySelector("[data-live-notice]");
  var pinned = section.querySelector("[data-live-pinned]");
  var latest = section.querySelector("[data-live-entries]");
  var older = document.createElement("ol");
  older.className = "live__entries live__older";
  latest.after(older);

  function ids(root) {
    var found = {};
    root.querySelectorAll("[data-entry]").forEach(function (item) {
      found[item.getAttribute("data-entry")] = true;
    });
    return found;
  }

  var known = ids(section);

  // "Older updates": the next page's entries, read from the plain page the link
  // opens, added below the others.
  function moreLinks() {
    section.querySelectorAll("[data-live-more]").forEach(function (link) {
      if (link.dataset.bound) return;
      link.dataset.bound = "1";
      link.addEventListener("click", function (event) {
        event.preventDefault();
        fetch(link.href, { headers: { Accept: "text/html" } })
          .then(function (response) {
            if (!response.ok) throw new Error(response.status);
            return response.text();
          })
          .then(function (html) {
            var page = new DOMParser().parseFromString(html, "text/html");
            page.querySelectorAll("[data-live-entries] > li").forEach(function (item) {
              var id = item.getAttribute("data-entry");
              if (known[id]) return;
              known[id] = true;
              older.appendChild(document.importNode(item, true));
            });
            var next = page.querySelector("[data-live-more]");
            if (next) {
              link.href = next.href;
            } else {
              link.parentNode.remove();
            }
          })
          .catch(function () {
            window.location.href = link.href; // the plain page, then
          });
      });
    });
  }
  moreLinks();

  var url = section.getAttribute("data-live-updates");
  if (!url) return;
  var seconds = Number(section.getAttribute("data-live-poll")) || 10;
  var lastText = null;
  var timer = null;

  function show(data) {
    var arrived = data.ids.filter(function (id) { return !known[id]; });
    pinned.innerHTML = data.pinned;
    latest.innerHTML = data.entries;
    // Entries loaded with "Older updates" that the newest now include.
    data.ids.forEach(function (id) {
      var copy = older.querySelector('[data-entry="' + id + '"]');
      if (copy) copy.remove();
    });
    arrived.forEach(function (id) {
      known[id] = true;
      var item = section.querySelector('[data-entry="' + id + '"]');
      if (item) item.classList.add("live-entry--new");
    });
    section.querySelector("[data-live-state]").innerHTML = data.stateHtml;
    section.className = "live live--" + data.state;
    if (arrived.length) {
      var template = arrived.length === 1
        ? section.getAttribute("data-one-new")
        : section.getAttribute("data-many-new");
      notice.textContent = template.replace("{count}", arrived.length);
    }
    if (data.state === "ended") {
      notice.textContent = section.getAttribute("data-ended");
      var badge = section.querySelector(".live__badge");
      if (badge) badge.remove();
      stop();
    }
  }

  function poll() {
    // no-cache: the browser asks again each time, with If-None-Match, and the
    // answer is a 304 until something changes.
    fetch(url, { cache: "no-cache", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (text) {
        // The first answer may already differ from the page (a cached page, an
        // entry edited since): shown too; only new entries are announced.
        if (text !== lastText) {
          lastText = text;
          var data = JSON.parse(text);
          show(data);
          seconds = data.poll || seconds;
        }
      })
      .catch(function () { /* the next poll tries again */ })
      .then(schedule);
  }

  function schedule() {
    if (timer === false) return;
    timer = window.setTimeout(poll, seconds * 1000);
  }

  function stop() {
    if (timer) window.clearTimeout(timer);
    timer = false;
  }

  // A hidden tab does not ask; it catches up when shown again.
  document.addEventListener("visibilitychange", function () {
    if (timer === false) return;
    if (document.hidden) {
      window.clearTimeout(timer);
      timer = null;
    } else if (timer === null) {
      poll();
    }
  });

  schedule();
})();
