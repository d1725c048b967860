// Optional: sort a table by a column header, and filter the standings by name.
// Every page is complete without this script.
(function () {
  "use strict";
  function cellValue(row, index) {
    var cell = row.children[index];
    var text = cell ? cell.textContent.trim() : "";
    var number = parseFloat(text.replace(",", ".").replace("½", ".5").replace("–", ""));
    return isNaN(number) ? text.toLowerCase() : number;
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var headers = table.querySelectorAll("thead th");
    headers.forEach(function (header, index) {
      header.setAttribute("aria-sort", "none");
      header.tabIndex = 0;
      function sort() {
        var ascending = header.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (other) { other.setAttribute("aria-sort", "none"); });
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, index), y = cellValue(b, index);
          if (x < y) { return ascending ? -1 : 1; }
          if (x > y) { return ascending ? 1 : -1; }
          return 0;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      header.addEventListener("click", sort);
      header.addEventListener("keydown", function (event) { if (event.key === "Enter") { sort(); } });
    });
  });
  // Names compared without case or diacritics: "nguyen" finds "Nguyễn", "dang" finds "Đặng".
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[đĐ]/g, "d").toLowerCase().trim();
  }
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var table = document.getElementById(input.getAttribute("data-filter"));
    if (!table) { return; }
    var box = input.closest(".filter");
    var none = box.querySelector(".no-match");
    box.hidden = false;
    var rows = Array.prototype.map.call(table.tBodies[0].rows, function (row) {
      var cell = row.querySelector("[data-name]");
      return {row: row, name: fold(cell ? cell.getAttribute("data-name") : row.textContent)};
    });
    input.addEventListener("input", function () {
      var query = fold(input.value);
      var shown = 0;
      rows.forEach(function (entry) {
        entry.row.hidden = query !== "" && entry.name.indexOf(query) === -1;
        if (!entry.row.hidden) { shown += 1; }
      });
      if (none) { none.hidden = shown > 0; }
    });
  });
  // The tab strip shows this page's round (or the round being played) without scrolling the page.
  document.querySelectorAll(".tabs").forEach(function (tabs) {
    var tab = tabs.querySelector("[aria-current]:not(:first-child)") || tabs.querySelector("[data-current]");
    if (tab && tabs.scrollWidth > tabs.clientWidth) {
      tabs.scrollLeft = tab.offsetLeft - tabs.offsetLeft - (tabs.clientWidth - tab.offsetWidth) / 2;
    }
  });
})();
