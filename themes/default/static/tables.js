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
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var table = document.getElementById(input.getAttribute("data-filter"));
    if (!table) { return; }
    input.closest(".filter").hidden = false;
    input.addEventListener("input", function () {
      var query = input.value.trim().toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        row.hidden = query !== "" && row.textContent.toLowerCase().indexOf(query) === -1;
      });
    });
  });
})();
