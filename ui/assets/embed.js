// Hosted screens (login, job, chat). Hand-written, served by the appliance,
// no framework. The link's token goes in the X-Embed-Token header of every
// call; the screens never use cookies or storage.
(function () {
  'use strict';
  var app = document.getElementById('app');
  if (!app) return;
  var token = app.dataset.token, screen = app.dataset.screen, jobId = app.dataset.job;
  var live = document.getElementById('live');
  var SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'];
  var MAX_SIZE = 104857600;

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs) {
    var n = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') n.textContent = attrs[k];
      else if (k === 'class') n.className = attrs[k];
      else n.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) n.appendChild(arguments[i]);
    return n;
  }
  function say(msg) { live.textContent = msg; }
  function withToken(path) { return path + (path.indexOf('?') < 0 ? '?' : '&') + 't=' + encodeURIComponent(token); }
  function jobPath(rest) { return '/embed/api/jobs/' + encodeURIComponent(jobId) + (rest || ''); }

  function expired() {
    if (window.parent !== window) window.parent.postMessage({ type: 'planreview:expired', screen: screen, jobId: jobId || null }, '*');
    document.body.textContent = '';
    document.body.appendChild(el('main', null, el('h1', { text: 'This link has expired' }),
      el('p', { text: 'Go back and open the review again to get a fresh link.' })));
  }

  function api(method, path, body) {
    var init = { method: method, headers: { 'X-Embed-Token': token }, credentials: 'omit', cache: 'no-store' };
    if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (r) {
      return r.json().catch(function () { return null; }).then(function (j) {
        if (r.status === 403) { expired(); throw new Error('expired'); }
        if (!r.ok) {
          var e = new Error(j && j.error ? j.error.message : 'Request failed (' + r.status + ').');
          e.code = j && j.error ? j.error.code : ''; e.status = r.status;
          throw e;
        }
        return j;
      });
    });
  }

  function severityBadge(sev) { return el('span', { class: 'sev sev-' + sev, text: sev }); }
  function countsLine(c) {
    var parts = SEVERITIES.filter(function (s) { return c && c[s]; }).map(function (s) { return c[s] + ' ' + s; });
    return parts.length ? parts.join(' · ') : 'no findings';
  }
  function statusWords(job) {
    // Rounds: a job whose earlier round was reviewed is not waiting for plans.
    var earlier = job.lastCompletedVersionId && job.lastCompletedVersionId !== job.versionId;
    switch (job.status) {
      case 'created': return earlier ? 'Reviewed; waiting for revised plans' : 'Waiting for plans';
      case 'queued': return earlier ? 'Revised plans queued for review' : 'Queued for review';
      case 'processing': return earlier ? 'Reviewing revised plans' : 'Reviewing';
      case 'complete': return 'Review complete: ' + countsLine(job.findingCounts);
      case 'failed': return 'Review failed' + (job.pipeline.error ? ': ' + job.pipeline.error.message : '');
    }
    return job.status;
  }

  // ---- login: the partner's jobs ----
  function login() {
    var cursors = [''], at = 0;
    function load() {
      var q = $('q').value.trim();
      var path = '/embed/api/jobs?limit=20' + (cursors[at] ? '&cursor=' + encodeURIComponent(cursors[at]) : '') + (q ? '&q=' + encodeURIComponent(q) : '');
      $('jobs-state').textContent = 'Loading jobs…';
      api('GET', path).then(function (list) {
        var ul = $('jobs'); ul.textContent = '';
        list.jobs.forEach(function (j) {
          var a = el('a', { href: withToken('/embed/job/' + encodeURIComponent(j.jobId)), class: 'job-link' },
            el('strong', { text: j.name }), j.externalId ? el('span', { class: 'muted', text: ' ' + j.externalId }) : null);
          ul.appendChild(el('li', { class: 'job', 'data-job': j.jobId }, a,
            el('span', { class: 'status st-' + j.status, text: statusWords(j) }),
            el('time', { class: 'muted', datetime: j.createdAt, text: new Date(j.createdAt).toLocaleDateString() })));
        });
        $('jobs-state').textContent = list.jobs.length ? '' : 'No jobs match.';
        if (list.nextCursor) cursors[at + 1] = list.nextCursor;
        $('next').disabled = !list.nextCursor; $('prev').disabled = at === 0;
        say(list.jobs.length + ' jobs shown');
      }).catch(function (e) { $('jobs-state').textContent = e.message; });
    }
    $('search').addEventListener('submit', function (ev) { ev.preventDefault(); cursors = ['']; at = 0; load(); });
    $('next').addEventListener('click', function () { at++; load(); });
    $('prev').addEventListener('click', function () { at = Math.max(0, at - 1); load(); });
    load();
  }

  // ---- job: upload, progress, findings beside marked-up sheets ----
  function job() {
    var uploading = 0, uploaded = 0, polling = null;
    if (app.dataset.via === 'login') { $('back').hidden = false; $('back').href = withToken('/embed/login'); }
    function refresh() {
      return api('GET', jobPath()).then(function (j) {
        $('job-title').textContent = j.name;
        $('job-status').textContent = statusWords(j);
        $('upload').hidden = j.status !== 'created' && j.status !== 'failed';
        $('progress').hidden = j.status !== 'queued' && j.status !== 'processing';
        if (!$('progress').hidden) showProgress(j.pipeline);
        if (j.status === 'queued' || j.status === 'processing') {
          if (!polling) polling = setInterval(refresh, 1500);
        } else if (polling) { clearInterval(polling); polling = null; }
        // Rounds: the last completed round's results stay on screen while a
        // newer round is open or being reviewed (rounds.js draws the banner).
        if (j.lastCompletedVersionId && j.lastCompletedVersionId !== shownVersion) results(j.lastCompletedVersionId);
        if (window.planreviewRounds) window.planreviewRounds.job(j);
        if (j.status === 'failed') { $('start').textContent = 'Review again'; $('start').disabled = uploading > 0; }
        if (j.status === 'created') api('GET', jobPath('/files')).then(function (l) {
          uploaded = l.files.filter(function (f) { return f.status === 'uploaded'; }).length;
          $('start').disabled = uploaded === 0 || uploading > 0;
        });
        return j;
      });
    }
    function showProgress(p) {
      $('bar').value = p.progress || 0;
      var ol = $('stages'); ol.textContent = '';
      (p.stages || []).forEach(function (s) {
        ol.appendChild(el('li', { class: 'stage-' + s.status, text: s.name + ': ' + s.status }));
      });
      say('Review ' + Math.round((p.progress || 0) * 100) + '% done, stage ' + p.currentStage);
    }
    $('pdfs').addEventListener('change', function () {
      Array.prototype.forEach.call(this.files, uploadOne);
      this.value = '';
    });
    function uploadOne(file) {
      var bar = el('progress', { max: '1', value: '0', 'aria-label': 'Upload of ' + file.name });
      var msg = el('span', { class: 'muted', text: 'Checking…' });
      var li = el('li', null, el('span', { class: 'fname', text: file.name }), bar, msg);
      $('uploads').appendChild(li);
      function fail(text) { li.classList.add('error'); msg.textContent = text; bar.hidden = true; say(file.name + ': ' + text); }
      if (file.size > MAX_SIZE) return fail('Too large: ' + Math.ceil(file.size / 1048576) + ' MB; the limit is 100 MB.');
      if (file.size === 0) return fail('The file is empty.');
      uploading++; $('start').disabled = true;
      file.slice(0, 5).arrayBuffer().then(function (head) {
        if (String.fromCharCode.apply(null, new Uint8Array(head)) !== '%PDF-') throw new Error('Not a PDF: only PDF plan sets can be reviewed.');
        return api('POST', jobPath('/files'), { fileName: file.name, fileSize: file.size, contentType: 'application/pdf' });
      }).then(function (reg) {
        return new Promise(function (resolve, reject) {
          var x = new XMLHttpRequest();
          x.open('PUT', reg.uploadUrl);
          x.setRequestHeader('Content-Type', 'application/pdf');
          x.upload.onprogress = function (e) { if (e.lengthComputable) { bar.value = e.loaded / e.total; msg.textContent = Math.round(100 * e.loaded / e.total) + '%'; } };
          x.onload = function () {
            if (x.status >= 200 && x.status < 300) return resolve();
            var m = 'Upload failed (' + x.status + ').';
            try { m = JSON.parse(x.responseText).error.message; } catch (e) { /* keep the status */ }
            reject(new Error(m));
          };
          x.onerror = function () { reject(new Error('Upload failed: the connection was lost.')); };
          x.send(file);
        });
      }).then(function () {
        bar.value = 1; msg.textContent = 'Uploaded'; li.classList.add('done'); uploaded++;
        say(file.name + ' uploaded');
      }, function (e) { if (e.message !== 'expired') fail(e.message); }).then(function () {
        uploading--; $('start').disabled = uploaded === 0 || uploading > 0;
      });
    }
    $('start').addEventListener('click', function () {
      $('start').disabled = true;
      api('POST', jobPath('/scan')).then(refresh).catch(function (e) { $('job-status').textContent = e.message; $('start').disabled = false; });
    });
    refresh().catch(function (e) { if (e.message !== 'expired') $('job-status').textContent = e.message; });
  }

  var shownVersion = null;
  function results(versionId) {
    var first = shownVersion === null;
    shownVersion = versionId;
    var inVersion = '?versionId=' + encodeURIComponent(versionId);
    $('results').hidden = false;
    ['basis', 'downloads', 'findings', 'sheets'].forEach(function (id) { $(id).textContent = ''; });
    $('f-sheet').length = 1;
    Promise.all([api('GET', jobPath('/findings' + inVersion)), api('GET', jobPath('/files' + inVersion))]).then(function (both) {
      var body = both[0], files = both[1].files.filter(function (f) { return f.status !== 'rejected' && f.pageCount; });
      showBasis(body.codeBasis, body.localLawCoverage);
      var sheetName = {}, sheetSel = $('f-sheet');
      body.findings.forEach(function (f) {
        var key = f.fileId + ':' + f.sheet.page;
        if (!sheetName[key]) {
          sheetName[key] = (f.sheet.sheetNumber || 'Page ' + f.sheet.page) + (f.sheet.sheetTitle ? ' ' + f.sheet.sheetTitle : '');
          sheetSel.appendChild(el('option', { value: key, text: sheetName[key] }));
        }
      });
      var boxesFor = {};
      files.forEach(function (file) {
        $('downloads').appendChild(el('button', { type: 'button', class: 'link', 'data-file': file.fileId, text: 'Marked-up PDF' + (files.length > 1 ? ' (' + file.fileName + ')' : '') }));
        for (var p = 1; p <= file.pageCount; p++) {
          var key = file.fileId + ':' + p;
          var canvas = el('div', { class: 'canvas' }, el('img', {
            src: withToken(jobPath('/files/' + file.fileId + '/pages/' + p)), loading: p <= 2 ? 'eager' : 'lazy',
            alt: 'Sheet ' + (sheetName[key] || 'page ' + p) + ' of ' + file.fileName, decoding: 'async' }));
          var zoom = el('button', { type: 'button', class: 'link zoom', 'aria-pressed': 'false', text: 'Zoom' });
          var fig = el('figure', { class: 'sheet', id: 'sheet-' + file.fileId + '-' + p, 'data-sheet': key },
            el('figcaption', null, el('span', { text: (sheetName[key] || 'Page ' + p) + ' · ' + file.fileName }), zoom),
            el('div', { class: 'scroller' }, canvas));
          boxesFor[key] = canvas;
          $('sheets').appendChild(fig);
        }
      });
      $('downloads').appendChild(el('a', { href: withToken(jobPath('/export/csv' + inVersion)), download: '', text: 'Findings CSV' }));
      $('downloads').appendChild(el('a', { href: withToken(jobPath('/letter' + inVersion)), download: '', 'data-letter': 'pdf', text: 'Correction letter (PDF)' }));
      $('downloads').appendChild(el('a', { href: withToken(jobPath('/letter' + inVersion + '&format=docx')), download: '', 'data-letter': 'docx', text: 'Correction letter (Word)' }));
      desk.boxesFor = boxesFor; desk.sheetName = sheetName;
      body.findings.forEach(function (f) { showFinding(f); });
      countShown();
      if (examiner && first) desk.start(files);
      if (window.planreviewRounds) window.planreviewRounds.results({ api: api, jobPath: jobPath, versionId: versionId, findings: body.findings, boxesFor: boxesFor });
      say('Review complete: ' + body.findings.length + ' findings');
    }).catch(function (e) { if (e.message !== 'expired') $('job-status').textContent = e.message; });
    if (!first) return;

    $('sheets').addEventListener('click', function (ev) {
      var t = ev.target;
      if (t.classList.contains('box')) {
        var d = $('finding-' + t.dataset.finding);
        d.open = true; d.querySelector('summary').focus(); d.scrollIntoView({ block: 'nearest' });
      } else if (t.classList.contains('zoom')) {
        var fig = t.closest('figure'), on = !fig.classList.contains('zoomed'), img = fig.querySelector('img');
        fig.classList.toggle('zoomed', on); t.setAttribute('aria-pressed', String(on));
        if (on && img.src.indexOf('size=large') < 0) img.src = img.src + '&size=large';
      }
    });
    $('downloads').addEventListener('click', function (ev) {
      var fileId = ev.target.dataset.file;
      if (!fileId) return;
      api('GET', jobPath('/files/' + fileId + '/annotated')).then(function (l) { window.open(l.url, '_blank', 'noopener'); })
        .catch(function (e) { say(e.message); });
    });
    function filter() {
      var sev = $('f-sev').value, sheet = $('f-sheet').value;
      Array.prototype.forEach.call(document.querySelectorAll('.finding'), function (li) {
        var on = (!sev || li.dataset.severity === sev) && (!sheet || li.dataset.sheet === sheet);
        li.hidden = !on;
        Array.prototype.forEach.call(document.querySelectorAll('.box[data-finding="' + li.dataset.finding + '"]'), function (b) { b.hidden = !on; });
      });
      Array.prototype.forEach.call(document.querySelectorAll('.sheet'), function (fig) { fig.hidden = !!sheet && fig.dataset.sheet !== sheet; });
      countShown();
    }
    $('f-sev').addEventListener('change', filter);
    $('f-sheet').addEventListener('change', filter);
  }

  // ---- findings and the examiner's desk ----
  var examiner = app.dataset.role === 'examiner';
  var desk = { boxesFor: {}, sheetName: {}, templates: [] };
  var STATUS_WORDS = { open: 'Open', accepted: 'Accepted', dismissed: 'Dismissed' };

  function countShown() {
    var all = document.querySelectorAll('.finding'), shown = 0, open = 0;
    Array.prototype.forEach.call(all, function (li) { if (!li.hidden) shown++; if (li.dataset.status === 'open') open++; });
    $('count').textContent = '(' + shown + (examiner ? ', ' + open + ' open' : '') + ')';
  }

  // showFinding draws a finding in the list and its boxes on the sheets,
  // replacing what an earlier state of it drew.
  function showFinding(f) {
    var oldDetails = $('finding-' + f.findingId), old = oldDetails && oldDetails.parentNode, wasOpen = oldDetails && oldDetails.open;
    var d = f.disposition || { status: 'open' };
    var details = el('details', { id: 'finding-' + f.findingId, 'data-finding': f.findingId },
      el('summary', null, el('span', { class: 'tag', text: '#' + f.number + ' ' }), severityBadge(f.severity),
        el('span', { class: 'disp disp-' + d.status, text: ' ' + STATUS_WORDS[d.status] + ' ' }),
        el('span', { class: 'ftitle', text: f.title }),
        el('span', { class: 'muted', text: ' · ' + (f.sheet.sheetNumber || 'page ' + f.sheet.page) })),
      el('p', { class: 'rationale', text: f.rationale }),
      el('p', null, el('strong', { text: 'Code: ' }), el('span', { text: f.governingRefs || '—' })),
      f.evidenceAnchors.length && f.evidenceAnchors[0].text ? el('p', { class: 'muted', text: 'On the sheet: “' + f.evidenceAnchors[0].text + '”' }) : null,
      d.note ? el('p', { class: 'note', text: (d.status === 'dismissed' ? 'Reason: ' : 'Note: ') + d.note }) : null,
      d.actor ? el('p', { class: 'muted', text: STATUS_WORDS[d.status] + ' by ' + d.actor.name + (d.updatedAt ? ', ' + new Date(d.updatedAt).toLocaleString() : '') }) : null,
      el('p', { class: 'muted', text: f.source === 'examiner' ? 'Examiner comment' : 'Confidence ' + Math.round(f.confidence * 100) + '% · ' + (f.source === 'model' ? 'model review' : 'rule ' + f.ruleId) }));
    if (examiner) details.appendChild(deskActions(f, d));
    var li = el('li', { class: 'finding sev-line-' + f.severity + ' st-' + d.status, 'data-severity': f.severity,
      'data-sheet': f.fileId + ':' + f.sheet.page, 'data-status': d.status, 'data-source': f.source, 'data-finding': f.findingId }, details);
    if (old) old.parentNode.replaceChild(li, old); else $('findings').appendChild(li);
    details.open = !!wasOpen;
    Array.prototype.forEach.call(document.querySelectorAll('.box[data-finding="' + f.findingId + '"]'), function (b) { b.remove(); });
    f.evidenceAnchors.forEach(function (a, n) {
      var canvas = desk.boxesFor[f.fileId + ':' + a.page];
      if (!canvas) return;
      var b = el('button', { type: 'button', class: 'box sev-box-' + f.severity + ' box-' + d.status, 'data-finding': f.findingId,
        'aria-label': 'Finding ' + f.number + ': ' + f.title + (f.evidenceAnchors.length > 1 ? ' (' + (n + 1) + ')' : '') + (d.status === 'dismissed' ? ' (dismissed)' : '') });
      place(b, a.bbox);
      canvas.appendChild(b);
    });
    details.addEventListener('toggle', function () { if (details.open) showBox(f.findingId); });
    return li;
  }

  function place(node, bb) {
    node.style.left = (bb.left * 100) + '%'; node.style.top = (bb.top * 100) + '%';
    node.style.width = (bb.width * 100) + '%'; node.style.height = (bb.height * 100) + '%';
  }

  function patchFinding(f, change, status) {
    status.textContent = 'Saving…';
    return api('PATCH', jobPath('/findings/' + f.findingId), change).then(function (nf) {
      showFinding(nf); countShown();
      say('Finding ' + nf.number + ': ' + STATUS_WORDS[nf.disposition.status]);
      var d = $('finding-' + nf.findingId); d.open = true;
      d.querySelector('summary').focus();
      return nf;
    }).catch(function (e) { if (e.message !== 'expired') status.textContent = e.message; throw e; });
  }

  // deskActions: accept, dismiss with a reason, edit the text, reopen, and
  // the finding's audit trail.
  function deskActions(f, d) {
    var status = el('p', { class: 'muted desk-status', role: 'status' });
    var bar = el('div', { class: 'desk-actions' });
    var panel = el('div', { class: 'desk-panel' });
    function button(cls, text, fn) {
      var b = el('button', { type: 'button', class: cls, text: text });
      b.addEventListener('click', fn); bar.appendChild(b); return b;
    }
    if (d.status !== 'accepted') button('act-accept', 'Accept', function () { patchFinding(f, { status: 'accepted' }, status); });
    if (d.status !== 'dismissed') button('act-dismiss secondary', 'Dismiss…', function () {
      panel.textContent = '';
      var reason = el('textarea', { id: 'reason-' + f.findingId, rows: '2', maxlength: '4000', required: 'required' });
      var form = el('form', { class: 'desk-form dismiss-form' }, el('label', { for: 'reason-' + f.findingId, text: 'Reason for dismissing' }), reason,
        el('div', { class: 'row' }, el('button', { type: 'submit', text: 'Dismiss finding' }), cancel()));
      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
        if (!reason.value.trim()) { status.textContent = 'A dismissal needs a reason.'; reason.focus(); return; }
        patchFinding(f, { status: 'dismissed', note: reason.value.trim() }, status);
      });
      panel.appendChild(form); reason.focus();
    });
    if (d.status !== 'open') button('act-reopen secondary', 'Reopen', function () { patchFinding(f, { status: 'open' }, status); });
    button('act-edit secondary', 'Edit…', function () {
      panel.textContent = '';
      var title = el('input', { id: 'title-' + f.findingId, type: 'text', maxlength: '200', value: f.title });
      var text = el('textarea', { id: 'text-' + f.findingId, rows: '4', maxlength: '4000' }); text.value = f.rationale;
      var sev = severitySelect('sev-' + f.findingId, f.severity);
      var form = el('form', { class: 'desk-form edit-form' }, el('label', { for: title.id, text: 'Title' }), title,
        el('label', { for: text.id, text: 'Comment' }), text, el('label', { for: sev.id, text: 'Severity' }), sev,
        el('div', { class: 'row' }, el('button', { type: 'submit', text: 'Save' }), cancel()));
      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
        var change = {};
        if (title.value.trim() !== f.title) change.title = title.value.trim();
        if (text.value.trim() !== f.rationale) change.rationale = text.value.trim();
        if (sev.value !== f.severity) change.severity = sev.value;
        if (!Object.keys(change).length) { panel.textContent = ''; return; }
        patchFinding(f, change, status);
      });
      panel.appendChild(form); title.focus();
    });
    button('act-history link', 'History', function () {
      panel.textContent = 'Loading…';
      api('GET', jobPath('/audit?findingId=' + encodeURIComponent(f.findingId))).then(function (page) {
        panel.textContent = '';
        var ol = el('ol', { class: 'history' });
        page.events.forEach(function (ev) {
          var what = ev.action.replace('finding.', '');
          var change = [];
          ['status', 'title', 'severity', 'note', 'rationale'].forEach(function (k) {
            if (ev.before && ev.before[k] !== ev.after[k]) change.push(k + ': “' + ev.before[k] + '” → “' + ev.after[k] + '”');
          });
          ol.appendChild(el('li', null, el('strong', { text: what }), el('span', { text: ' by ' + ev.actor.name + ', ' + new Date(ev.at).toLocaleString() }),
            change.length ? el('div', { class: 'muted', text: change.join('; ') }) : null));
        });
        if (!page.events.length) ol.appendChild(el('li', { class: 'muted', text: 'No changes yet: as the review found it.' }));
        panel.appendChild(el('h3', { text: 'History' })); panel.appendChild(ol);
      }).catch(function (e) { if (e.message !== 'expired') panel.textContent = e.message; });
    });
    function cancel() {
      var b = el('button', { type: 'button', class: 'secondary', text: 'Cancel' });
      b.addEventListener('click', function () { panel.textContent = ''; });
      return b;
    }
    return el('div', { class: 'desk' }, bar, panel, status);
  }

  function severitySelect(id, value) {
    var sel = el('select', { id: id });
    SEVERITIES.forEach(function (s) { var o = el('option', { value: s, text: s }); if (s === value) o.selected = true; sel.appendChild(o); });
    return sel;
  }

  // Adding a comment: draw a box on a sheet (or pick a sheet without one),
  // then write it or pick a standard comment.
  desk.start = function (files) {
    var tools = $('desk-tools'); tools.hidden = false;
    api('GET', jobPath('/comment-templates')).then(function (l) { desk.templates = l.templates; }).catch(function () { /* templates are optional */ });
    var drawing = false;
    $('add-comment').addEventListener('click', function () {
      drawing = !drawing;
      $('sheets').classList.toggle('drawing', drawing);
      this.setAttribute('aria-pressed', String(drawing));
      $('draw-hint').hidden = !drawing;
      say(drawing ? 'Drag on a sheet to mark the area the comment is about.' : 'Drawing stopped');
    });
    var start = null, rubber = null;
    function frac(canvas, ev) {
      var r = canvas.getBoundingClientRect();
      return { x: Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width)), y: Math.min(1, Math.max(0, (ev.clientY - r.top) / r.height)) };
    }
    $('sheets').addEventListener('pointerdown', function (ev) {
      var canvas = ev.target.closest && ev.target.closest('.canvas');
      if (!drawing || !canvas) return;
      ev.preventDefault();
      start = { canvas: canvas, p: frac(canvas, ev) };
      rubber = el('span', { class: 'rubber' }); canvas.appendChild(rubber);
      place(rubber, { left: start.p.x, top: start.p.y, width: 0, height: 0 });
    });
    $('sheets').addEventListener('pointermove', function (ev) {
      if (!start) return;
      var p = frac(start.canvas, ev);
      place(rubber, box(start.p, p));
    });
    $('sheets').addEventListener('pointerup', function (ev) {
      if (!start) return;
      var bb = box(start.p, frac(start.canvas, ev)), key = start.canvas.closest('figure').dataset.sheet;
      start = null;
      if (bb.width < 0.003 || bb.height < 0.003) { rubber.remove(); return; }
      drawing = false; $('sheets').classList.remove('drawing'); $('add-comment').setAttribute('aria-pressed', 'false'); $('draw-hint').hidden = true;
      commentForm(key, bb, rubber);
    });
    function box(a, b) {
      return { left: Math.min(a.x, b.x), top: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
    }
  };

  function commentForm(key, bb, rubber) {
    var parts = key.split(':'), fileId = parts[0], page = parseInt(parts[1], 10);
    var holder = $('comment-panel'); holder.textContent = ''; holder.hidden = false;
    var tpl = el('select', { id: 'c-template' }, el('option', { value: '', text: 'Write a new comment' }));
    desk.templates.forEach(function (t) { tpl.appendChild(el('option', { value: t.templateId, text: t.title })); });
    var title = el('input', { id: 'c-title', type: 'text', maxlength: '200' });
    var text = el('textarea', { id: 'c-text', rows: '4', maxlength: '4000' });
    var refs = el('input', { id: 'c-refs', type: 'text', maxlength: '500' });
    var sev = severitySelect('c-sev', 'medium');
    var status = el('p', { class: 'muted', role: 'status' });
    tpl.addEventListener('change', function () {
      var t = desk.templates.filter(function (x) { return x.templateId === tpl.value; })[0];
      if (!t) return;
      title.value = t.title; text.value = t.text; refs.value = t.governingRefs || '';
      if (t.severity) sev.value = t.severity;
    });
    var form = el('form', { class: 'desk-form comment-form' },
      el('h2', { text: 'New comment on ' + (desk.sheetName[key] || 'page ' + page) }),
      el('label', { for: 'c-template', text: 'Standard comment' }), tpl,
      el('label', { for: 'c-title', text: 'Title' }), title,
      el('label', { for: 'c-text', text: 'Comment' }), text,
      el('label', { for: 'c-refs', text: 'Code reference' }), refs,
      el('label', { for: 'c-sev', text: 'Severity' }), sev,
      el('div', { class: 'row' }, el('button', { type: 'submit', text: 'Add comment' }), el('button', { type: 'button', class: 'secondary', id: 'c-cancel', text: 'Cancel' })),
      status);
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var body = { fileId: fileId, page: page, bbox: bb, title: title.value.trim(), rationale: text.value.trim(), severity: sev.value };
      if (refs.value.trim()) body.governingRefs = refs.value.trim();
      if (tpl.value) body.templateId = tpl.value;
      if (!body.title || !body.rationale) { status.textContent = 'A comment needs a title and a text.'; return; }
      status.textContent = 'Saving…';
      api('POST', jobPath('/findings'), body).then(function (f) {
        rubber.remove(); holder.hidden = true; holder.textContent = '';
        var li = showFinding(f); countShown();
        li.querySelector('details').open = true; li.querySelector('summary').focus();
        say('Comment ' + f.number + ' added');
      }).catch(function (e) { if (e.message !== 'expired') status.textContent = e.message; });
    });
    form.querySelector('#c-cancel').addEventListener('click', function () { rubber.remove(); holder.hidden = true; holder.textContent = ''; });
    holder.appendChild(form);
    tpl.focus();
  }

  function showBox(findingId) {
    var boxes = document.querySelectorAll('.box[data-finding="' + findingId + '"]');
    Array.prototype.forEach.call(document.querySelectorAll('.box.active'), function (b) { b.classList.remove('active'); });
    Array.prototype.forEach.call(boxes, function (b) { b.classList.add('active'); });
    if (boxes.length) boxes[0].scrollIntoView({ block: 'center', inline: 'center' });
  }

  function showBasis(basis, coverage) {
    var box = $('basis');
    box.appendChild(el('h2', { text: 'Codes applied' }));
    var ul = el('ul');
    ((basis && basis.lines) || []).forEach(function (l) { ul.appendChild(el('li', { text: l })); });
    box.appendChild(ul);
    if (!coverage) {
      box.appendChild(el('p', { text: 'No jurisdiction is set for this job, so local amendments were not evaluated: findings cite the model codes only.' }));
    } else if (coverage.status === 'HELD') {
      box.appendChild(el('p', null, el('strong', { text: 'Local law HELD. ' }), el('span', {
        text: 'The appliance could not confirm that its copy of the local law is complete and current for this review, so findings on these topics are withheld until the operator certifies a current snapshot: ' +
          ((coverage.heldTopics || []).join(', ') || 'none') + '.' })));
      var lim = el('ul');
      (coverage.limitations || []).forEach(function (l) { lim.appendChild(el('li', { text: l })); });
      box.appendChild(lim);
    } else {
      box.appendChild(el('p', { text: 'Local law CERTIFIED: the local amendments in force on the application date were applied (snapshot ' + coverage.selectedSnapshotId + ').' }));
    }
    if (basis && basis.requiresAck) box.appendChild(el('p', { class: 'muted', text: 'An examiner must acknowledge these limits before relying on the review.' }));
  }

  // ---- chat ----
  function chatScreen() {
    var history = [];
    // Rounds: ask about the last completed round while a newer one is open.
    var chatVersion;
    api('GET', jobPath()).then(function (j) { chatVersion = j.lastCompletedVersionId || undefined; }).catch(function () {});
    $('ask').addEventListener('submit', function (ev) {
      ev.preventDefault();
      var q = $('message').value.trim();
      if (!q) return;
      var conv = $('conversation');
      conv.appendChild(el('li', { class: 'you' }, el('p', { text: q })));
      var pending = el('li', { class: 'bot' }, el('p', { class: 'muted', text: 'Reading the plans…' }));
      conv.appendChild(pending);
      $('message').value = '';
      api('POST', jobPath('/chat'), { message: q, history: history.slice(-48), versionId: chatVersion }).then(function (a) {
        pending.textContent = '';
        pending.appendChild(el('p', { text: a.answer }));
        if (a.citations.length) {
          var cites = el('ul', { class: 'cites' });
          a.citations.forEach(function (c) {
            var b = el('button', { type: 'button', class: 'link cite', text: 'Sheet ' + (c.sheetNumber || 'page ' + c.page) + ': “' + c.excerpt + '”' });
            b.addEventListener('click', function () { showCited(c); });
            cites.appendChild(el('li', null, b));
          });
          pending.appendChild(cites);
        }
        history.push({ role: 'user', content: q }, { role: 'assistant', content: a.answer });
        say(a.answer);
      }).catch(function (e) { if (e.message !== 'expired') pending.textContent = e.message; });
    });
    $('message').addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); $('ask').requestSubmit(); }
    });
  }

  function showCited(c) {
    var holder = $('cited-sheet'); holder.textContent = '';
    var canvas = el('div', { class: 'canvas' }, el('img', { src: withToken(jobPath('/files/' + c.fileId + '/pages/' + c.page)),
      alt: 'Sheet ' + (c.sheetNumber || 'page ' + c.page) + ' with the cited words highlighted' }));
    holder.appendChild(el('div', { class: 'scroller' }, canvas));
    $('cited').hidden = false;
    $('cited-h').textContent = 'Sheet ' + (c.sheetNumber || 'page ' + c.page);
    api('GET', jobPath('/files/' + c.fileId + '/pages/' + c.page + '/words?text=' + encodeURIComponent(c.excerpt))).then(function (w) {
      w.boxes.forEach(function (bb) {
        var m = el('span', { class: 'mark' });
        m.style.left = (bb.left * 100) + '%'; m.style.top = (bb.top * 100) + '%';
        m.style.width = (bb.width * 100) + '%'; m.style.height = (bb.height * 100) + '%';
        canvas.appendChild(m);
      });
      var first = canvas.querySelector('.mark');
      $('cited-h').focus();
      if (first) first.scrollIntoView({ block: 'center', inline: 'center' });
    });
  }

  if (screen === 'login') login();
  else if (screen === 'job') job();
  else if (screen === 'chat') chatScreen();
}());
