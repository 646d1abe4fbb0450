// Resubmittal rounds on the job screen (hand-written, no framework). The
// job screen's script calls planreviewRounds.job(job) on every refresh and
// planreviewRounds.results(ctx) once a round's findings are drawn; this
// file draws the round, the banner while a newer round is open or being
// reviewed, each finding's round status, the earlier findings resolved
// since, and the changed regions of revised sheets.
(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var n = document.createElement(tag);
    for (var k in attrs || {}) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function numberOf(job, versionId) {
    var v = (job.versions || []).filter(function (x) { return x.versionId === versionId; })[0];
    return v ? v.number : null;
  }
  var STATUS = { created: 'open for the revised plans', queued: 'queued for review', processing: 'being reviewed', failed: 'failed to scan' };
  var lastJob = null;
  var revised = {}; // fileId:page -> {sheet, fromRound} of the round shown

  function job(j) {
    lastJob = j;
    var shown = j.lastCompletedVersionId;
    var banner = $('round-banner');
    if (!banner) return;
    var current = numberOf(j, j.versionId), last = shown ? numberOf(j, shown) : null;
    if (shown && shown !== j.versionId) {
      banner.hidden = false;
      banner.textContent = 'Round ' + current + ' is ' + (STATUS[j.status] || j.status) +
        '. Showing the results of round ' + last + ' until its review is complete.';
    } else {
      banner.hidden = true;
    }
    if (!shown) return;
    $('rounds').hidden = false;
    $('round-number').textContent = String(last);
    var v = (j.versions || []).filter(function (x) { return x.versionId === shown; })[0];
    var r = v && v.round;
    $('round-summary').textContent = r && r.previousVersionId
      ? r.new + ' new · ' + r.persisting + ' still standing · ' + r.resolved + ' resolved since round ' + numberOf(j, r.previousVersionId)
      : 'First round of review.';
  }

  // results decorates a drawn round: ctx = {jobPath, api, versionId,
  // findings, redraw (draws the viewer's sheet again, which calls
  // decorate)}.
  function results(ctx) {
    revised = {};
    ctx.findings.forEach(function (f) {
      if (!f.round) return;
      var sum = document.querySelector('#finding-' + f.findingId + ' summary');
      if (!sum || sum.querySelector('.round-badge')) return;
      var words = f.round.status === 'persisting' ? 'Still standing' : 'New';
      sum.insertBefore(el('span', { class: 'round-badge round-' + f.round.status, 'data-round': f.round.status }, words), sum.firstChild.nextSibling);
      var li = sum.closest('li');
      if (li) li.dataset.round = f.round.status;
    });
    if (!ctx.findings.some(function (f) { return f.round; }) && !(lastJob && numberOf(lastJob, ctx.versionId) > 1)) return;
    ctx.api('GET', ctx.jobPath('/compare?to=' + encodeURIComponent(ctx.versionId))).then(function (c) {
      if (!c.from) return;
      var since = 'Resolved since round ' + c.fromRound + ' (' + c.findings.resolved.length + ')';
      $('resolved').hidden = false;
      $('resolved-h').textContent = since;
      var ol = $('resolved-list'); ol.textContent = '';
      c.findings.resolved.forEach(function (f) {
        var li = el('li', { 'data-finding': f.findingId });
        li.appendChild(el('span', null, f.title));
        li.appendChild(el('span', { class: 'muted' }, '· ' + (f.sheet.sheetNumber || 'page ' + f.sheet.page) + ' · round ' + c.fromRound));
        ol.appendChild(li);
      });
      if (!c.findings.resolved.length) ol.appendChild(el('li', { class: 'muted' }, 'Nothing from round ' + c.fromRound + ' is resolved yet.'));
      revised = {};
      c.sheets.revised.forEach(function (s) { revised[s.fileId + ':' + s.page] = { sheet: s, fromRound: c.fromRound }; });
      Array.prototype.forEach.call(document.querySelectorAll('.thumb'), function (t) {
        var r = revised[t.dataset.sheet];
        if (!r) { delete t.dataset.revised; return; }
        t.dataset.revised = 'true';
        var name = t.querySelector('.tname');
        if (name && !t.querySelector('.trevised')) t.insertBefore(el('span', { class: 'trevised' }, 'Revised'), name.nextSibling);
      });
      $('changes-toggle').hidden = !c.sheets.revised.some(function (s) { return (s.changes || []).length; });
      if (ctx.redraw) ctx.redraw();
    }).catch(function () { /* the findings stand without the comparison */ });
  }

  // decorate draws the changed regions of the viewer's sheet when it was
  // revised since the previous round, and says so beside its title.
  function decorate(canvas, key) {
    Array.prototype.forEach.call(canvas.querySelectorAll('.change'), function (b) { b.remove(); });
    var viewer = $('viewer'), head = viewer && viewer.querySelector('.vhead');
    var note = head && head.querySelector('.sheet-revised-note');
    var r = revised[key];
    if (!r) {
      if (viewer) delete viewer.dataset.revised;
      if (note) note.remove();
      return;
    }
    var s = r.sheet, changes = s.changes || [];
    viewer.dataset.revised = 'true';
    if (!note && head) { note = el('span', { class: 'sheet-revised-note' }); head.appendChild(note); }
    var why = (s.reasons || []).map(function (x) { return x === 'revision' ? 'title-block revision' : 'words'; }).join(' and ');
    if (note) note.textContent = 'Revised since round ' + r.fromRound + (why ? ' (' + why + ')' : '') +
      (s.renumbered && s.previous ? '; was ' + s.previous.sheetNumber : '') + ': ' + changes.length + ' changed region' + (changes.length === 1 ? '' : 's');
    changes.forEach(function (ch) {
      var b = el('div', { class: 'change change-' + ch.kind, 'data-change': ch.kind, title: ch.kind === 'added' ? 'Added in this round' : 'Removed since round ' + r.fromRound });
      b.style.left = (ch.bbox.left * 100) + '%'; b.style.top = (ch.bbox.top * 100) + '%';
      b.style.width = (ch.bbox.width * 100) + '%'; b.style.height = (ch.bbox.height * 100) + '%';
      canvas.appendChild(b);
    });
  }

  document.addEventListener('change', function (ev) {
    if (ev.target && ev.target.id === 'show-changes') {
      var viewer = $('viewer');
      if (viewer) viewer.classList.toggle('hide-changes', !ev.target.checked);
    }
  });

  window.planreviewRounds = { job: job, results: results, decorate: decorate };
})();
