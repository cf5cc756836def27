/**
 * The live page's web vitals and heatmaps panels (insights.ts gathers them): a row per page with
 * each metric's 75th percentile coloured by its rating, and per page URL a canvas with the outline
 * of the page's clickable elements (as hogtail's heatmaps extension sent it; the clicks' extent
 * when none came) scaled to the panel, each click a dot where it landed. Text goes in with
 * textContent; the canvas draws numbers only.
 */
export const PAGE_SCRIPT_INSIGHTS = `
  var HEATMAP_WIDTH = 320;
  var VITAL_NAMES = ['LCP', 'CLS', 'FCP', 'INP'];

  function vitalText(name, figure) {
    if (!figure) return '–';
    var value = name === 'CLS' ? figure.p75.toFixed(3) : Math.round(figure.p75) + ' ms';
    return value + ' (' + plural(figure.samples, 'sample') + ')';
  }

  function renderVitals(rows) {
    var body = $('vitals').tBodies[0];
    clear(body);
    rows.forEach(function (row) {
      var tr = el('tr');
      tr.appendChild(el('td', '', shortUrl(row.page)));
      VITAL_NAMES.forEach(function (name) {
        var figure = row.metrics[name];
        var cell = el('td', figure ? 'rating-' + figure.rating : 'muted', vitalText(name, figure));
        if (figure) cell.title = figure.rating;
        tr.appendChild(cell);
      });
      body.appendChild(tr);
    });
    $('vitals').hidden = rows.length === 0;
    $('vitals-empty').hidden = rows.length > 0;
  }

  function drawHeatmap(canvas, map) {
    var outline = map.outline;
    var width = outline ? outline.width : 1;
    var height = outline ? outline.height : 1;
    map.clicks.forEach(function (click) { width = Math.max(width, click.x + 10); height = Math.max(height, click.y + 10); });
    var scale = HEATMAP_WIDTH / width;
    canvas.width = HEATMAP_WIDTH;
    canvas.height = Math.max(20, Math.min(2000, Math.round(height * scale)));
    var context = canvas.getContext('2d');
    if (!context) return;
    context.strokeStyle = '#9aa0a6';
    (outline ? outline.boxes : []).forEach(function (box) {
      context.strokeRect(box[0] * scale, box[1] * scale, Math.max(1, box[2] * scale), Math.max(1, box[3] * scale));
    });
    context.fillStyle = 'rgba(220, 38, 38, 0.55)';
    map.clicks.forEach(function (click) {
      context.beginPath();
      context.arc(click.x * scale, click.y * scale, 3, 0, Math.PI * 2);
      context.fill();
    });
  }

  function renderHeatmaps(maps) {
    var list = $('heatmaps');
    clear(list);
    maps.forEach(function (map) {
      var item = el('div', 'heatmap');
      item.appendChild(el('h4', '', shortUrl(map.page)));
      item.appendChild(el('div', 'muted', plural(map.clicksTotal, 'click') + (map.outline ? '' : ' (no outline of the page yet)')));
      var canvas = el('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', 'clicks on ' + map.page);
      drawHeatmap(canvas, map);
      item.appendChild(canvas);
      list.appendChild(item);
    });
    $('heatmaps-empty').hidden = maps.length > 0;
  }

  function renderInsights(insights) {
    renderVitals(insights.webVitals);
    renderHeatmaps(insights.heatmaps);
  }
`;
