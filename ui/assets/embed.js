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
    switch (job.status) {
      case 'created': return 'Waiting for plans';
      case 'queued': return 'Queued for review';
      case 'processing': return 'Reviewing';
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
        if (j.status === 'complete' && $('results').hidden) results();
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

  function results() {
    $('results').hidden = false;
    Promise.all([api('GET', jobPath('/findings')), api('GET', jobPath('/files'))]).then(function (both) {
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
      $('downloads').appendChild(el('a', { href: withToken(jobPath('/export/csv')), download: '', text: 'Findings CSV' }));
      $('count').textContent = '(' + body.findings.length + ')';
      body.findings.forEach(function (f, i) {
        var id = 'finding-' + f.findingId;
        var details = el('details', { id: id, 'data-finding': f.findingId },
          el('summary', null, severityBadge(f.severity), el('span', { text: ' ' + f.title }),
            el('span', { class: 'muted', text: ' · ' + (f.sheet.sheetNumber || 'page ' + f.sheet.page) })),
          el('p', { text: f.rationale }),
          el('p', null, el('strong', { text: 'Code: ' }), el('span', { text: f.governingRefs || '—' })),
          el('p', { class: 'muted', text: 'Confidence ' + Math.round(f.confidence * 100) + '% · ' + (f.source === 'model' ? 'model review' : 'rule ' + f.ruleId) }));
        var li = el('li', { class: 'finding sev-line-' + f.severity, 'data-severity': f.severity, 'data-sheet': f.fileId + ':' + f.sheet.page }, details);
        $('findings').appendChild(li);
        f.evidenceAnchors.forEach(function (a, n) {
          var canvas = boxesFor[f.fileId + ':' + a.page];
          if (!canvas) return;
          var b = el('button', { type: 'button', class: 'box sev-box-' + f.severity, 'data-finding': f.findingId,
            'aria-label': 'Finding ' + (i + 1) + ': ' + f.title + (f.evidenceAnchors.length > 1 ? ' (' + (n + 1) + ')' : '') });
          b.style.left = (a.bbox.left * 100) + '%'; b.style.top = (a.bbox.top * 100) + '%';
          b.style.width = (a.bbox.width * 100) + '%'; b.style.height = (a.bbox.height * 100) + '%';
          canvas.appendChild(b);
        });
        details.addEventListener('toggle', function () { if (details.open) showBox(f.findingId); });
      });
      say('Review complete: ' + body.findings.length + ' findings');
    }).catch(function (e) { if (e.message !== 'expired') $('job-status').textContent = e.message; });

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
      var sev = $('f-sev').value, sheet = $('f-sheet').value, shown = 0;
      Array.prototype.forEach.call(document.querySelectorAll('.finding'), function (li) {
        var on = (!sev || li.dataset.severity === sev) && (!sheet || li.dataset.sheet === sheet);
        li.hidden = !on; if (on) shown++;
        Array.prototype.forEach.call(document.querySelectorAll('.box[data-finding="' + li.querySelector('details').dataset.finding + '"]'), function (b) { b.hidden = !on; });
      });
      Array.prototype.forEach.call(document.querySelectorAll('.sheet'), function (fig) { fig.hidden = !!sheet && fig.dataset.sheet !== sheet; });
      $('count').textContent = '(' + shown + ')';
    }
    $('f-sev').addEventListener('change', filter);
    $('f-sheet').addEventListener('change', filter);
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
    $('ask').addEventListener('submit', function (ev) {
      ev.preventDefault();
      var q = $('message').value.trim();
      if (!q) return;
      var conv = $('conversation');
      conv.appendChild(el('li', { class: 'you' }, el('p', { text: q })));
      var pending = el('li', { class: 'bot' }, el('p', { class: 'muted', text: 'Reading the plans…' }));
      conv.appendChild(pending);
      $('message').value = '';
      api('POST', jobPath('/chat'), { message: q, history: history.slice(-48) }).then(function (a) {
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
