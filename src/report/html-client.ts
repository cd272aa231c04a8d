/**
 * The page's own script, inlined after Chart.js: draws every `<canvas data-chart>` from the JSON
 * block `#ctxbench-charts` (adding the callbacks JSON cannot carry: tick formats, tooltips, the
 * legend filter) and makes `table.sortable` sortable by a click or Enter on a header. Plain ES2017,
 * no globals besides `Chart`; it reads only the page itself.
 */
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var source = document.getElementById('ctxbench-charts');
  var specs = JSON.parse((source && source.textContent) || '{}');

  function count(n) {
    var a = Math.abs(n);
    if (a < 10000) return String(Math.round(n));
    if (a < 999950) return Math.round(n / 100) / 10 + 'k';
    return Math.round(n / 10000) / 100 + 'M';
  }
  function clock(minutes) {
    var s = Math.max(0, Math.round(minutes * 60));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = h > 0 && m < 10 ? '0' + m : String(m);
    return (h > 0 ? h + ':' : '') + mm + ':' + (r < 10 ? '0' : '') + r;
  }
  var formats = {
    step: function (v) { return Number.isInteger(v) ? String(v) : ''; },
    tokens: count,
    percent: function (v) { return Math.round(v * 100) + '%'; },
    seconds: function (v) { return Math.round(v * 10) / 10 + ' s'; },
    minutes: clock,
    usd: function (v) { return '$' + (Math.abs(v) < 1 ? v.toFixed(4) : v.toFixed(2)); },
    label: null
  };

  function withTicks(scale, format) {
    if (!scale || !format) return;
    scale.ticks = Object.assign({}, scale.ticks, { callback: function (value) { return format(Number(value)); } });
  }

  function hydrate(spec) {
    var config = spec.config;
    var options = config.options;
    var fx = formats[spec.format.x];
    var fy = formats[spec.format.y] || String;
    withTicks(options.scales.x, fx);
    withTicks(options.scales.y, formats[spec.format.y]);
    options.plugins.tooltip = {
      callbacks: {
        title: function (items) {
          var item = items[0];
          if (!item) return '';
          return fx ? options.scales.x.title.text + ' ' + fx(item.parsed.x) : item.label;
        },
        label: function (context) {
          var raw = context.raw;
          if (raw && typeof raw === 'object' && typeof raw.label === 'string') return raw.label;
          if (context.dataset.tips) return context.dataset.tips[context.dataIndex];
          return context.dataset.label + ': ' + (context.parsed.y === null ? 'n/a' : fy(context.parsed.y));
        }
      }
    };
    var labels = options.plugins.legend.labels;
    labels.filter = function (item, data) {
      var dataset = data.datasets[item.datasetIndex];
      return !(dataset && dataset.hideInLegend);
    };
    labels.usePointStyle = true;
    labels.pointStyleWidth = 22;
    labels.generateLabels = function (chart) {
      var items = Chart.defaults.plugins.legend.labels.generateLabels(chart);
      items.forEach(function (item) {
        var dataset = chart.data.datasets[item.datasetIndex];
        if (config.type === 'bar') item.pointStyle = 'rect';
        else if (dataset && dataset.showLine !== false) item.pointStyle = 'line';
        else if (dataset) {
          // Markers colour each point by strategy; the legend shows the dataset's own colours.
          item.fillStyle = dataset.backgroundColor;
          item.strokeStyle = dataset.borderColor;
        }
      });
      return items;
    };
    return config;
  }

  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.color = '#374151';
  var charts = [];
  Array.prototype.forEach.call(document.querySelectorAll('canvas[data-chart]'), function (canvas) {
    var spec = specs[canvas.getAttribute('data-chart')];
    if (spec) charts.push(new Chart(canvas, hydrate(spec)));
  });

  // Highlighting: the strategies whose chip is pressed are drawn strong, the others faded.
  var chips = Array.prototype.slice.call(document.querySelectorAll('button.chip[data-strategy]'));
  var known = {};
  chips.forEach(function (chip) { known[chip.getAttribute('data-strategy')] = true; });
  function fade(color) { return typeof color === 'string' && /^#[0-9a-f]{6}/i.test(color) ? color.slice(0, 7) + '30' : color; }
  function strong(color) { return typeof color === 'string' && /^#[0-9a-f]{6}/i.test(color) ? color.slice(0, 7) : color; }
  function restyle(dataset, key, faded) {
    if (!dataset.ctxbenchBase) dataset.ctxbenchBase = { border: dataset.borderColor, background: dataset.backgroundColor, width: dataset.borderWidth };
    var base = dataset.ctxbenchBase;
    dataset.borderColor = faded ? fade(base.border) : base.border;
    dataset.backgroundColor = faded ? fade(base.background) : base.background;
    if (typeof base.width === 'number' && dataset.showLine !== false) dataset.borderWidth = faded ? 1 : base.width + (key ? 0.5 : 0);
  }
  function emphasize() {
    var selected = {};
    var any = false;
    chips.forEach(function (chip) {
      if (chip.getAttribute('aria-pressed') === 'true') { selected[chip.getAttribute('data-strategy')] = true; any = true; }
    });
    charts.forEach(function (chart) {
      var labels = chart.data.labels || [];
      chart.data.datasets.forEach(function (dataset) {
        var key = dataset.strategy || dataset.label;
        if (known[key]) return restyle(dataset, selected[key], any && !selected[key]);
        // One dataset, a bar per strategy (the spread of a corpus): fade bar by bar.
        if (Array.isArray(dataset.backgroundColor) || (dataset.ctxbenchBase && Array.isArray(dataset.ctxbenchBase.background))) {
          if (!dataset.ctxbenchBase) dataset.ctxbenchBase = { border: dataset.borderColor, background: dataset.backgroundColor };
          dataset.backgroundColor = dataset.ctxbenchBase.background.map(function (color, i) { return any && known[labels[i]] && !selected[labels[i]] ? fade(color) : color; });
          if (Array.isArray(dataset.ctxbenchBase.border)) dataset.borderColor = dataset.ctxbenchBase.border.map(function (color, i) { return any && known[labels[i]] && !selected[labels[i]] ? fade(color) : strong(color); });
        }
      });
      chart.update('none');
    });
  }
  chips.forEach(function (chip) {
    chip.addEventListener('click', function () {
      chip.setAttribute('aria-pressed', chip.getAttribute('aria-pressed') === 'true' ? 'false' : 'true');
      emphasize();
    });
  });
  if (chips.length > 0) emphasize();

  // A corpus's drill-down: the chosen log's figures for every strategy, from the page's own data.
  Array.prototype.forEach.call(document.querySelectorAll('select[data-drill]'), function (select) {
    var id = select.getAttribute('data-drill');
    var data = JSON.parse(document.getElementById(id + '-log-data').textContent || '{}');
    var body = document.getElementById(id + '-log-rows');
    function pct(v) { return v === null ? '–' : Math.round(v * 100) + '%'; }
    function cell(row, text, numeric) {
      var td = document.createElement('td');
      if (numeric) td.className = 'num';
      td.textContent = text;
      row.appendChild(td);
    }
    function show() {
      var i = Number(select.value);
      var log = data.logs[i];
      while (body.firstChild) body.removeChild(body.firstChild);
      data.strategies.forEach(function (strategy, s) {
        var c = data.cells[i][s];
        if (!c) return;
        var row = document.createElement('tr');
        if (c[5] !== null) row.className = 'crashed';
        var th = document.createElement('th');
        th.scope = 'row';
        var swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = strategy[1];
        th.appendChild(swatch);
        th.appendChild(document.createTextNode(strategy[0]));
        row.appendChild(th);
        cell(row, c[0] + '/' + log[2], true);
        cell(row, count(c[1]), true);
        cell(row, pct(c[2]), true);
        cell(row, c[3] === null ? '–' : '$' + c[3].toFixed(4), true);
        cell(row, pct(c[4]), true);
        cell(row, c[5] === null ? '–' : c[5], false);
        body.appendChild(row);
      });
      select.title = log[1];
    }
    select.addEventListener('change', show);
    show();
  });

  function sortKey(cell) {
    if (!cell) return '';
    var key = cell.getAttribute('data-sort');
    return key === null ? cell.textContent.trim() : key;
  }
  function compare(a, b, direction) {
    if (a === b) return 0;
    if (a === '') return 1;
    if (b === '') return -1;
    var x = Number(a), y = Number(b);
    var order = !isNaN(x) && !isNaN(y) ? x - y : a.localeCompare(b);
    return direction * order;
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    var headers = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headers, function (header, index) {
      header.tabIndex = 0;
      header.classList.add('sort-header');
      function sort() {
        var direction = header.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        Array.prototype.forEach.call(headers, function (h) { h.removeAttribute('aria-sort'); });
        header.setAttribute('aria-sort', direction === 1 ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) { return compare(sortKey(a.cells[index]), sortKey(b.cells[index]), direction); });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      header.addEventListener('click', sort);
      header.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); sort(); }
      });
    });
  });
})();`;
