// Hosted screens (login, job, chat). Hand-written, served by the appliance,
// no framework. The link's token goes in the X-Embed-Token header of every
// call; the screens never use cookies or storage.
(function () {
  'use strict';
  var app = document.getElementById('app');
  if (!app) return;
  var token = app.dataset.token || new URL(location.href).searchParams.get('t') || '', screen = app.dataset.screen, jobId = app.dataset.job;
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

  // ---- the link's session: expiring, renew, expired, resize ----
  // The token is the link's: its claims (screen, job, expiry) are read
  // from its payload; the server checks the signature on every call.
  function claimsOf(t) {
    try { return JSON.parse(atob(t.split('.')[0].replace(/-/g, '+').replace(/_/g, '/'))); } catch (e) { return null; }
  }
  var link = claimsOf(token) || { s: screen, j: jobId, e: +app.dataset.expires };
  var expiringTimer = null, expiredShown = false;
  function toParent(msg) { if (window.parent !== window) window.parent.postMessage(msg, '*'); }
  function linkMessage(type) { return { type: type, screen: link.s, jobId: link.j || null }; }
  function scheduleExpiring() {
    clearTimeout(expiringTimer);
    // Two minutes before the end; at once when less is left.
    var wait = Math.max(0, link.e * 1000 - 120000 - Date.now());
    expiringTimer = setTimeout(function () {
      var m = linkMessage('planreview:expiring'); m.expiresAt = link.e;
      toParent(m);
    }, Math.min(wait, 2147483647));
  }
  scheduleExpiring();
  // planreview:renew carries a fresh link for the same screen and job:
  // the screen carries on with its token, keeping its state.
  window.addEventListener('message', function (ev) {
    if (ev.source !== window.parent || window.parent === window || !ev.data || ev.data.type !== 'planreview:renew') return;
    var fresh;
    try { fresh = new URL(String(ev.data.url), location.href); } catch (e) { return; }
    var t = fresh.searchParams.get('t'), c = t && claimsOf(t);
    if (fresh.origin !== location.origin || !c || c.s !== link.s || (c.j || '') !== (link.j || '') || c.p !== link.p) return;
    token = t; link = c;
    scheduleExpiring();
    // Links that carry the token, and this page's own address (a reload
    // or a way back then finds a live link).
    Array.prototype.forEach.call(document.querySelectorAll('[data-path]'), function (a) { a.href = withToken(a.dataset.path); });
    var here = new URL(location.href); here.searchParams.set('t', t);
    history.replaceState(history.state, '', here.pathname + here.search);
    if (expiredShown) { expiredShown = false; var b = $('expired-bar'); if (b) b.remove(); }
    say('Link renewed');
  });
  // An expired link mid-session keeps the screen as it is (a renew may
  // still come) and tells the parent once.
  function expired() {
    if (expiredShown) return;
    expiredShown = true;
    toParent(linkMessage('planreview:expired'));
    var bar = el('div', { id: 'expired-bar', class: 'expired-bar', role: 'alert' }, el('strong', { text: 'This link has expired. ' }),
      el('span', { text: 'What is on the screen stays; to load more, go back and open the review again to get a fresh link.' }));
    app.insertBefore(bar, app.firstChild);
  }
  // planreview:resize: the content's height, whenever it changes, so the
  // parent can size the frame to it.
  (function () {
    var last = 0, queued = false;
    function post() {
      queued = false;
      var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (h !== last) { last = h; toParent({ type: 'planreview:resize', height: h }); }
    }
    function queue() { if (!queued) { queued = true; requestAnimationFrame(post); } }
    if (window.ResizeObserver) new ResizeObserver(queue).observe(document.documentElement);
    window.addEventListener('load', queue);
    queue();
  }());
  // tokenLink: an anchor to path carrying the current token, renewed with it.
  function tokenLink(attrs, path) {
    var a = el('a', attrs);
    a.dataset.path = path; a.href = withToken(path);
    return a;
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
          var a = tokenLink({ class: 'job-link' }, '/embed/job/' + encodeURIComponent(j.jobId));
          a.appendChild(el('strong', { text: j.name }));
          if (j.externalId) a.appendChild(el('span', { class: 'muted', text: ' ' + j.externalId }));
          var chat = j.lastCompletedVersionId ? el('button', { type: 'button', class: 'link open-chat', 'data-job': j.jobId, text: 'Ask about the plans' }) : null;
          ul.appendChild(el('li', { class: 'job', 'data-job': j.jobId }, a,
            el('span', { class: 'status st-' + j.status, text: statusWords(j) }), chat,
            el('time', { class: 'muted', datetime: j.createdAt, text: new Date(j.createdAt).toLocaleDateString() })));
        });
        $('jobs-state').textContent = list.jobs.length ? '' : 'No jobs match.';
        if (list.nextCursor) cursors[at + 1] = list.nextCursor;
        $('next').disabled = !list.nextCursor; $('prev').disabled = at === 0;
        say(list.jobs.length + ' jobs shown');
      }).catch(function (e) { $('jobs-state').textContent = e.message; });
    }
    $('jobs').addEventListener('click', function (ev) {
      var b = ev.target.closest('.open-chat');
      if (b) openChat(b.dataset.job, b);
    });
    $('search').addEventListener('submit', function (ev) { ev.preventDefault(); cursors = ['']; at = 0; load(); });
    $('next').addEventListener('click', function () { at++; load(); });
    $('prev').addEventListener('click', function () { at = Math.max(0, at - 1); load(); });
    load();
  }

  // openChat opens a job's chat in this frame: a chat link for the job,
  // minted from this screen's link and ending with it; back returns here.
  function openChat(id, button) {
    if (button) button.disabled = true;
    api('POST', '/embed/api/jobs/' + encodeURIComponent(id) + '/chat-link').then(function (l) {
      var u = new URL(l.url, location.href);
      location.assign(u.pathname + u.search + '&back=1');
    }).catch(function (e) { if (button) button.disabled = false; if (e.message !== 'expired') say(e.message); });
  }

  // What a failed scan's code means for the person in front of the
  // screen: why, and what to do instead of trying the same files again.
  var FAILED_ADVICE = {
    invalid_pdf: 'The file named above cannot be read as a PDF. Export the set again from the drawing program (Print or Export to PDF) and upload that file.',
    encrypted_pdf: 'The PDF is password-protected. Save a copy without the password (or ask the designer for one) and upload it.',
    empty_pdf: 'The PDF has no pages. Upload the plan set itself.',
    too_many_pages: 'The set has more pages than the appliance reviews in one go. Upload the sheets to be reviewed as a smaller PDF, or split the set into several PDFs.',
    too_complex: 'A page is too complex to read within the appliance\'s limits. Export it again flattened (without layers), or leave that sheet out and upload the rest.',
    timeout: 'The review took longer than the appliance allows. Upload a smaller set, or ask the operator to raise the time limit (scan.timeout).',
    internal: 'This is a fault in the appliance, not in your plans. Ask the operator to look at the log; quote the job name. Trying the same files again will not help until it is fixed.'
  };

  // ---- job: upload, progress, findings beside marked-up sheets ----
  function job() {
    var uploading = 0, uploaded = 0, polling = null, failedAt = null;
    if (app.dataset.via === 'login') { $('back').hidden = false; $('back').dataset.path = '/embed/login'; $('back').href = withToken('/embed/login'); }
    $('open-chat').addEventListener('click', function () { openChat(jobId, this); });
    function refresh() {
      return api('GET', jobPath()).then(function (j) {
        $('job-title').textContent = j.name;
        document.title = j.name + ' · planreview';
        $('job-status').textContent = statusWords(j);
        $('open-chat').hidden = !j.lastCompletedVersionId;
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
        showFailure(j);
        if (j.status === 'created') api('GET', jobPath('/files')).then(function (l) {
          uploaded = l.files.filter(function (f) { return f.status === 'uploaded'; }).length;
          $('start').disabled = uploaded === 0 || uploading > 0;
        });
        return j;
      });
    }
    // showFailure says why a scan failed and what to do; the review can
    // start again only with a new upload, not on the same files.
    function showFailure(j) {
      var box = $('failure');
      box.hidden = j.status !== 'failed';
      if (box.hidden) return;
      var err = j.pipeline.error || { code: 'internal', message: '' };
      if (failedAt === null) failedAt = uploaded;
      box.textContent = '';
      box.appendChild(el('h2', { text: 'The review could not be done' }));
      if (err.message) box.appendChild(el('p', { class: 'why', text: err.message }));
      box.appendChild(el('p', { class: 'advice', text: FAILED_ADVICE[err.code] || FAILED_ADVICE.internal }));
      $('upload-h').textContent = 'Upload corrected plans';
      $('start').textContent = 'Review the new upload';
      $('start').disabled = uploading > 0 || uploaded <= failedAt;
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
        uploading--; $('start').disabled = uploaded === 0 || uploading > 0 || (failedAt !== null && uploaded <= failedAt);
      });
    }
    $('start').addEventListener('click', function () {
      $('start').disabled = true;
      failedAt = null;
      api('POST', jobPath('/scan')).then(refresh).catch(function (e) { $('job-status').textContent = e.message; $('start').disabled = false; });
    });
    refresh().catch(function (e) { if (e.message !== 'expired') $('job-status').textContent = e.message; });
  }

  // Coverage findings (rule ids coverage-*) report what the review could
  // not read, not a fault in the plans.
  function coverageOf(findings) {
    var c = { none: false, pages: 0 };
    findings.forEach(function (f) {
      if (f.ruleId === 'coverage-no-readable-pages') c.none = true;
      if (f.ruleId === 'coverage-unreadable-page') c.pages += f.evidenceAnchors.length || 1;
    });
    return c;
  }

  var viewer = null, findingsById = {}, sheetName = {}, sheetKeys = [], activeId = null;
  var narrow = window.matchMedia('(max-width: 899px)');

  // results draws a completed round; a later round replaces the one shown.
  var shownVersion = null;
  function results(versionId) {
    var first = shownVersion === null;
    shownVersion = versionId;
    var inVersion = '?versionId=' + encodeURIComponent(versionId);
    $('results').hidden = false;
    ['basis', 'downloads', 'findings'].forEach(function (id) { $(id).textContent = ''; });
    $('f-sheet').length = 1;
    findingsById = {}; sheetName = {}; sheetKeys = []; activeId = null;
    Promise.all([api('GET', jobPath('/findings' + inVersion)), api('GET', jobPath('/files' + inVersion))]).then(function (both) {
      var body = both[0], files = both[1].files.filter(function (f) { return f.status !== 'rejected' && f.pageCount; });
      var coverage = coverageOf(body.findings);
      if (coverage.none) {
        // Nothing was read, so nothing was reviewed and no code applied.
        $('job-status').textContent = 'Not reviewed: no page of this set has text the appliance can read';
        $('open-chat').hidden = true;
        showUnreadable(files);
      } else {
        showBasis(body.codeBasis, body.localLawCoverage, coverage);
      }
      var sheetSel = $('f-sheet');
      files.forEach(function (file) {
        for (var p = 1; p <= file.pageCount; p++) {
          var key = file.fileId + ':' + p;
          sheetKeys.push(key);
          sheetName[key] = 'Page ' + p + (files.length > 1 ? ' of ' + file.fileName : '');
        }
      });
      body.findings.forEach(function (f) {
        var key = f.fileId + ':' + f.sheet.page;
        if (f.sheet.sheetNumber || f.sheet.sheetTitle) sheetName[key] = (f.sheet.sheetNumber || 'Page ' + f.sheet.page) + (f.sheet.sheetTitle ? ' ' + f.sheet.sheetTitle : '');
      });
      sheetKeys.forEach(function (key) { sheetSel.appendChild(el('option', { value: key, text: sheetName[key] })); });
      files.forEach(function (file) {
        $('downloads').appendChild(el('button', { type: 'button', class: 'link', 'data-file': file.fileId, text: 'Marked-up PDF' + (files.length > 1 ? ' (' + file.fileName + ')' : '') }));
      });
      $('downloads').appendChild(tokenLink({ download: '', text: 'Findings CSV' }, jobPath('/export/csv' + inVersion)));
      $('downloads').appendChild(tokenLink({ download: '', 'data-letter': 'pdf', text: 'Correction letter (PDF)' }, jobPath('/letter' + inVersion)));
      $('downloads').appendChild(tokenLink({ download: '', 'data-letter': 'docx', text: 'Correction letter (Word)' }, jobPath('/letter' + inVersion + '&format=docx')));
      desk.sheetName = sheetName;
      if (!viewer) startViewer();
      buildThumbs();
      body.findings.forEach(function (f) { showFinding(f); });
      countShown();
      thumbCounts();
      if (sheetKeys.length) viewer.show(sheetKeys[0]);
      if (examiner && first) desk.start(files);
      if (window.planreviewRounds) window.planreviewRounds.results({ api: api, jobPath: jobPath, versionId: versionId, findings: body.findings, redraw: drawBoxes });
      say(coverage.none ? 'Not reviewed: nothing readable' : 'Review complete: ' + body.findings.length + ' findings');
    }).catch(function (e) { if (e.message !== 'expired') $('job-status').textContent = e.message; });
    if (!first) return;

    $('downloads').addEventListener('click', function (ev) {
      var fileId = ev.target.dataset.file;
      if (!fileId) return;
      api('GET', jobPath('/files/' + fileId + '/annotated')).then(function (l) { window.open(l.url, '_blank', 'noopener'); })
        .catch(function (e) { if (e.message !== 'expired') say(e.message); });
    });
    function filter() {
      var sev = $('f-sev').value, sheet = $('f-sheet').value;
      Array.prototype.forEach.call(document.querySelectorAll('.finding'), function (li) {
        li.hidden = !((!sev || li.dataset.severity === sev) && (!sheet || li.dataset.sheet === sheet));
      });
      Array.prototype.forEach.call(document.querySelectorAll('.thumb'), function (t) { t.parentNode.hidden = !!sheet && t.dataset.sheet !== sheet; });
      if (sheet && viewer.key !== sheet) viewer.show(sheet); else drawBoxes();
      countShown();
    }
    $('f-sev').addEventListener('change', filter);
    $('f-sheet').addEventListener('change', filter);
  }

  // showUnreadable: a set with nothing readable names no code and says
  // what would make it reviewable.
  function showUnreadable(files) {
    var box = $('basis');
    box.textContent = '';
    box.classList.add('unreadable');
    box.appendChild(el('h2', { text: 'Nothing in this set could be read' }));
    box.appendChild(el('p', { text: 'No page of ' + (files.map(function (f) { return f.fileName; }).join(', ') || 'this set') +
      ' has text the appliance can read (the sheets look scanned or drawn as images), so no code was applied and nothing was checked.' }));
    box.appendChild(el('p', { text: 'To get a review, upload the set as exported from the drawing program (Print or Export to PDF), not a scan of paper sheets.' }));
  }

  function tilePath(key, level, x, y) {
    var parts = key.split(':');
    var base = jobPath('/files/' + parts[0] + '/pages/' + parts[1]);
    return withToken(level === 0 ? base : base + '/tiles/' + level + '/' + x + '/' + y);
  }
  function tileSource(key) { return function (level, x, y) { return tilePath(key, level, x, y); }; }

  // startViewer builds the sheet viewer: thumbnails, zoom, next and
  // previous finding, keys.
  function startViewer() {
    var V = window.planreviewViewer;
    $('viewer').hidden = false;
    viewer = new V.Viewer($('v-port'), {
      src: tileSource,
      alt: function (key) { return 'Sheet ' + sheetName[key]; },
      loading: function (on, failed) { $('v-loading').hidden = !on && !failed; $('v-loading').textContent = failed || 'Loading sheet…'; },
      zoomed: function (z) { $('v-zoom').textContent = z === 1 ? 'Fit' : (Math.round(z * 10) / 10) + '×'; },
      drawing: function () { return desk.drawing; },
      shown: function (key) {
        $('v-title').textContent = sheetName[key];
        $('v-zoom').textContent = 'Fit';
        Array.prototype.forEach.call(document.querySelectorAll('.thumb'), function (t) {
          if (t.dataset.sheet === key) t.setAttribute('aria-current', 'true'); else t.removeAttribute('aria-current');
        });
        drawBoxes();
      }
    });
    var thumbs = $('thumbs');
    thumbs.addEventListener('click', function (ev) {
      var t = ev.target.closest('.thumb');
      if (t) viewer.show(t.dataset.sheet);
    });
    $('v-in').addEventListener('click', function () { viewer.step(1); });
    $('v-out').addEventListener('click', function () { viewer.step(-1); });
    $('v-fit').addEventListener('click', function () { viewer.setZoom(1); });
    $('v-next').addEventListener('click', function () { stepFinding(1); });
    $('v-prev').addEventListener('click', function () { stepFinding(-1); });
    $('v-port').addEventListener('click', function (ev) {
      var b = ev.target.closest('.box');
      if (!b || desk.drawing) return;
      openFinding(b.dataset.finding, { list: true });
    });
    // Keys: + and - zoom, 0 fits, n and p step through the findings, and
    // the arrows pan while the viewer has focus. Not while typing.
    document.addEventListener('keydown', function (ev) {
      var t = ev.target, tag = t.tagName;
      if (ev.altKey || ev.ctrlKey || ev.metaKey || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t.isContentEditable) return;
      var inViewer = !!t.closest && !!t.closest('#viewer');
      var keys = { '+': function () { viewer.step(1); }, '=': function () { viewer.step(1); }, '-': function () { viewer.step(-1); },
        '_': function () { viewer.step(-1); }, '0': function () { viewer.setZoom(1); }, 'n': function () { stepFinding(1); }, 'p': function () { stepFinding(-1); } };
      if (inViewer) {
        keys.ArrowLeft = function () { viewer.pan(-0.2, 0); }; keys.ArrowRight = function () { viewer.pan(0.2, 0); };
        keys.ArrowUp = function () { viewer.pan(0, -0.2); }; keys.ArrowDown = function () { viewer.pan(0, 0.2); };
      }
      var fn = keys[ev.key];
      if (!fn) return;
      ev.preventDefault();
      fn();
    });
    narrow.addEventListener('change', function () { if (activeId) showCrop(activeId); });
  }

  // buildThumbs lists the shown round's sheets under the viewer.
  function buildThumbs() {
    var thumbs = $('thumbs');
    thumbs.textContent = '';
    sheetKeys.forEach(function (key, n) {
      var img = el('img', { src: tilePath(key, 0, 0, 0).replace('?', '?size=thumb&'), alt: '', loading: n < 8 ? 'eager' : 'lazy', decoding: 'async' });
      thumbs.appendChild(el('li', null, el('button', { type: 'button', class: 'thumb', 'data-sheet': key, 'aria-label': 'Show sheet ' + sheetName[key] },
        img, el('span', { class: 'tname', text: sheetName[key] }), el('span', { class: 'tcount' }))));
    });
  }

  function thumbCounts() {
    var n = {};
    Object.keys(findingsById).forEach(function (id) {
      var f = findingsById[id], k = f.fileId + ':' + f.sheet.page;
      if (!coverageRule(f)) n[k] = (n[k] || 0) + 1;
    });
    Array.prototype.forEach.call(document.querySelectorAll('.thumb'), function (t) {
      t.querySelector('.tcount').textContent = n[t.dataset.sheet] ? n[t.dataset.sheet] + ' finding' + (n[t.dataset.sheet] > 1 ? 's' : '') : '';
    });
  }
  function coverageRule(f) { return f.source === 'rule' && /^coverage-/.test(f.ruleId || ''); }

  // drawBoxes draws the numbered boxes of the shown sheet's findings.
  function drawBoxes() {
    if (!viewer || !viewer.sheet) return;
    var canvas = viewer.sheet.canvas, key = viewer.key;
    Array.prototype.forEach.call(canvas.querySelectorAll('.box'), function (b) { b.remove(); });
    Array.prototype.forEach.call(document.querySelectorAll('.finding'), function (li) {
      var f = findingsById[li.dataset.finding];
      if (!f || li.hidden) return;
      var d = f.disposition || { status: 'open' };
      f.evidenceAnchors.forEach(function (a, n) {
        if (f.fileId + ':' + a.page !== key) return;
        var b = el('button', { type: 'button', class: 'box sev-box-' + f.severity + ' box-' + d.status + (f.findingId === activeId ? ' active' : ''), 'data-finding': f.findingId,
          'aria-label': 'Finding ' + f.number + ': ' + f.title + (f.evidenceAnchors.length > 1 ? ' (' + (n + 1) + ')' : '') + (d.status === 'dismissed' ? ' (dismissed)' : '') },
          el('span', { class: 'bnum', text: String(f.number) }));
        window.planreviewViewer.place(b, a.bbox);
        canvas.appendChild(b);
      });
    });
    canvas.classList.toggle('has-active', !!canvas.querySelector('.box.active'));
    // Rounds: the changed regions of a revised sheet (rounds.js).
    if (window.planreviewRounds) window.planreviewRounds.decorate(canvas, key);
  }

  // shownOrder is the findings in list order, as filtered.
  function shownOrder() {
    return Array.prototype.filter.call(document.querySelectorAll('.finding'), function (li) { return !li.hidden; })
      .map(function (li) { return li.dataset.finding; });
  }
  function stepFinding(dir) {
    var order = shownOrder();
    if (!order.length) return;
    var i = order.indexOf(activeId);
    i = i < 0 ? (dir > 0 ? 0 : order.length - 1) : (i + dir + order.length) % order.length;
    openFinding(order[i], { list: true });
  }

  // openFinding makes a finding the active one: its list item open, its
  // sheet in the viewer zoomed to its box, and on a phone its crop beside
  // its text. list: bring the list item into view (without moving the page
  // on a phone, where the viewer is far below).
  function openFinding(id, how) {
    var f = findingsById[id];
    if (!f) return Promise.resolve();
    activeId = id;
    Array.prototype.forEach.call(document.querySelectorAll('.finding.active'), function (li) { li.classList.remove('active'); });
    var d = $('finding-' + id);
    d.parentNode.classList.add('active');
    if (!d.open) { d.dataset.quiet = '1'; d.open = true; }
    if (how && how.list) {
      d.querySelector('summary').focus({ preventScroll: true });
      d.scrollIntoView({ block: 'nearest' });
    }
    $('v-pos').textContent = 'Finding ' + f.number + ' (' + (shownOrder().indexOf(id) + 1) + ' of ' + shownOrder().length + ')';
    say('Finding ' + f.number + ': ' + f.title);
    showCrop(id);
    // Beside the list, the viewer is brought into view if it is not; on a
    // phone the crop under the text shows the place, and the page stays.
    if (!narrow.matches && viewer) {
      var r = viewer.port.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) viewer.port.scrollIntoView({ block: 'nearest' });
    }
    var a = f.evidenceAnchors[0];
    if (!a || !viewer) { drawBoxes(); return Promise.resolve(); }
    var key = f.fileId + ':' + a.page;
    return viewer.show(key).then(function () {
      drawBoxes();
      var bb = unionOf(f.evidenceAnchors.filter(function (x) { return x.page === a.page; }).map(function (x) { return x.bbox; }));
      return viewer.frame(bb);
    });
  }
  function unionOf(boxes) {
    var l = 1, t = 1, r = 0, b = 0;
    boxes.forEach(function (x) { l = Math.min(l, x.left); t = Math.min(t, x.top); r = Math.max(r, x.left + x.width); b = Math.max(b, x.top + x.height); });
    return { left: l, top: t, width: Math.max(0, r - l), height: Math.max(0, b - t) };
  }
  // showCrop: on a phone, the finding's part of its sheet under its text.
  function showCrop(id) {
    Array.prototype.forEach.call(document.querySelectorAll('.finding .crop'), function (c) { c.remove(); });
    var f = findingsById[id], a = f && f.evidenceAnchors[0];
    if (!narrow.matches || !a) return;
    var d = $('finding-' + id), holder = el('div', { class: 'crop', role: 'img', 'aria-label': 'Where finding ' + f.number + ' is on sheet ' + (sheetName[f.fileId + ':' + a.page] || 'page ' + a.page) });
    d.insertBefore(holder, d.querySelector('summary').nextSibling);
    window.planreviewViewer.crop(holder, tileSource(f.fileId + ':' + a.page), '', a.bbox);
  }

  // ---- findings and the examiner's desk ----
  var examiner = app.dataset.role === 'examiner';
  var desk = { sheetName: {}, templates: [], drawing: false };
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
      el('summary', null, el('span', { class: 'num', 'aria-label': 'Finding ' + f.number, text: String(f.number) }), severityBadge(f.severity),
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
    findingsById[f.findingId] = f;
    if (f.findingId === activeId) li.classList.add('active');
    drawBoxes();
    // Opening a finding by hand makes it the active one; opening it from
    // the viewer (quiet) has done that already.
    details.addEventListener('toggle', function () {
      if (!details.open) { if (activeId === f.findingId) showCrop(null); return; }
      if (details.dataset.quiet) { delete details.dataset.quiet; return; }
      openFinding(f.findingId);
    });
    return li;
  }

  function place(node, bb) { window.planreviewViewer.place(node, bb); }

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
      drawing = desk.drawing = !drawing;
      $('v-port').classList.toggle('drawing', drawing);
      this.setAttribute('aria-pressed', String(drawing));
      $('draw-hint').hidden = !drawing;
      say(drawing ? 'Drag on a sheet to mark the area the comment is about.' : 'Drawing stopped');
    });
    var start = null, rubber = null;
    function frac(canvas, ev) {
      var r = canvas.getBoundingClientRect();
      return { x: Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width)), y: Math.min(1, Math.max(0, (ev.clientY - r.top) / r.height)) };
    }
    $('v-port').addEventListener('pointerdown', function (ev) {
      var canvas = ev.target.closest && ev.target.closest('.canvas');
      if (!drawing || !canvas) return;
      ev.preventDefault();
      start = { canvas: canvas, p: frac(canvas, ev) };
      rubber = el('span', { class: 'rubber' }); canvas.appendChild(rubber);
      place(rubber, { left: start.p.x, top: start.p.y, width: 0, height: 0 });
    });
    $('v-port').addEventListener('pointermove', function (ev) {
      if (!start) return;
      var p = frac(start.canvas, ev);
      place(rubber, box(start.p, p));
    });
    $('v-port').addEventListener('pointerup', function (ev) {
      if (!start) return;
      var bb = box(start.p, frac(start.canvas, ev)), key = start.canvas.dataset.sheet;
      start = null;
      if (bb.width < 0.003 || bb.height < 0.003) { rubber.remove(); return; }
      drawing = desk.drawing = false; $('v-port').classList.remove('drawing'); $('add-comment').setAttribute('aria-pressed', 'false'); $('draw-hint').hidden = true;
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

  function showBasis(basis, coverage, read) {
    var box = $('basis');
    box.appendChild(el('h2', { text: 'Codes applied' }));
    if (read && read.pages) box.appendChild(el('p', { class: 'partial', text: read.pages + ' page' + (read.pages > 1 ? 's' : '') +
      ' could not be read (no machine-readable text) and were not reviewed; the findings cover the other pages only.' }));
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
    // Titled with the job it is about.
    api('GET', jobPath()).then(function (j) {
      $('job-title').textContent = 'Ask about the plans: ' + j.name;
      document.title = j.name + ' · Ask about the plans · planreview';
    }).catch(function () { /* the title stays generic */ });
    if (new URL(location.href).searchParams.get('back') === '1' && window.history.length > 1) {
      $('chat-back').hidden = false;
      $('chat-back').addEventListener('click', function (ev) { ev.preventDefault(); window.history.back(); });
    }
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
