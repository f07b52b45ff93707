// Sign-up and settings pages: while the zone is the default (UTC), pick the browser's zone
// in the list for them to save (a static file, for a strict CSP: no inline script).
(function () {
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var select = document.getElementById("id_time_zone");
  if (!zone || zone === "UTC" || !select) return;
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) {
      select.value = zone;
      document.getElementById("zone-guess").hidden = false;
      return;
    }
  }
})();
