// The sheet viewer of the job screen (and the sheet crops a finding shows
// on a phone). A sheet is its screen image (1600 px on the long side)
// with, once zoomed past it, tiles of the level the zoom needs drawn over
// it: level L has a long side of 1600 << L px, cut into 512 px squares
// (embed/sheetimage/tiles.go). Boxes are placed in fractions of the page,
// so they stay on their words at any zoom. Hand-written, no framework.
(function () {
  'use strict';
  var BASE = 1600, TILE = 512, MAX_LEVEL = 3;
  var ZOOMS = [1, 1.5, 2, 3, 4, 6, 8, 12];

  function el(tag, cls) { var n = document.createElement(tag); if (cls) n.className = cls; return n; }

  // Sheet draws one page: base image, tile layers, then whatever the
  // caller puts on top (boxes). src(level, x, y) gives an image URL;
  // level 0 is the whole screen image.
  function Sheet(src, alt) {
    var s = this;
    s.src = src;
    s.canvas = el('div', 'canvas');
    s.base = el('img', 'base');
    s.base.alt = alt; s.base.decoding = 'async'; s.base.draggable = false;
    s.tiles = el('div', 'tiles');
    s.canvas.appendChild(s.base); s.canvas.appendChild(s.tiles);
    s.layers = {}; s.level = 0; s.w = 0; s.h = 0;
    s.ready = new Promise(function (resolve, reject) {
      s.base.onload = function () { s.ratio = s.base.naturalHeight / s.base.naturalWidth; resolve(s); };
      s.base.onerror = function () { reject(new Error('The sheet image could not be loaded.')); };
    });
    s.base.src = src(0, 0, 0);
  }
  // size lays the canvas out w CSS pixels wide.
  Sheet.prototype.size = function (w) {
    this.w = w; this.h = w * this.ratio; this.long = Math.max(this.w, this.h);
    this.canvas.style.width = this.w + 'px'; this.canvas.style.height = this.h + 'px';
    this.tiles.style.width = this.tiles.style.height = this.long + 'px';
  };
  // levelFor is the least level drawn with at least the screen's pixels
  // over 1.3: a level serves up to 1.3x its size, so 8x on a laptop comes
  // from the levels drawn when the scan ended (a sheet's finest level,
  // 12800 px on the long side, is drawn block by block on first use).
  Sheet.prototype.levelFor = function () {
    var need = this.long * (window.devicePixelRatio || 1) / 1.3, level = 0;
    while (level < MAX_LEVEL && (BASE << level) < need) level++;
    return level;
  };
  // paint loads the tiles under view ({left, top, width, height} in
  // canvas pixels); done(n) is told when the n tiles it asked for loaded.
  Sheet.prototype.paint = function (view, done) {
    var s = this, level = s.levelFor();
    if (level !== s.level) {
      // Keep the layer shown so far under the new one until it loads;
      // drop any other.
      Object.keys(s.layers).forEach(function (l) {
        if (+l !== level && +l !== s.level) { s.layers[l].remove(); delete s.layers[l]; }
      });
      s.previous = s.level; s.level = level;
    }
    if (level === 0) { if (done) done(0); return 0; }
    var layer = s.layers[level];
    if (!layer) {
      layer = s.layers[level] = el('div', 'layer');
      layer.dataset.level = level;
      s.tiles.appendChild(layer);
    }
    var ls = BASE << level, px = s.long / ls * TILE;
    var x0 = Math.max(0, Math.floor(view.left / px)), y0 = Math.max(0, Math.floor(view.top / px));
    var x1 = Math.min(Math.ceil(s.w / px) - 1, Math.floor((view.left + view.width - 1) / px));
    var y1 = Math.min(Math.ceil(s.h / px) - 1, Math.floor((view.top + view.height - 1) / px));
    var pct = TILE / ls * 100, waiting = 0, asked = 0;
    function loaded() {
      if (--waiting > 0) return;
      var prev = s.layers[s.previous];
      if (prev && s.previous !== s.level && s.level === level) { prev.remove(); delete s.layers[s.previous]; }
      if (done) done(asked);
    }
    for (var y = y0; y <= y1; y++) {
      for (var x = x0; x <= x1; x++) {
        var id = 't' + x + '-' + y, img = layer.querySelector('.' + id);
        asked++;
        if (img) { if (!img.complete) { waiting++; img.addEventListener('load', loaded); img.addEventListener('error', loaded); } continue; }
        img = el('img', 'tile ' + id);
        img.alt = ''; img.draggable = false; img.decoding = 'async';
        img.style.left = (x * pct) + '%'; img.style.top = (y * pct) + '%';
        img.style.width = img.style.height = pct + '%';
        waiting++;
        img.addEventListener('load', loaded);
        img.addEventListener('error', function () { this.remove(); loaded(); });
        img.src = s.src(level, x, y);
        layer.appendChild(img);
      }
    }
    if (waiting === 0) { waiting = 1; loaded(); }
    return asked;
  };

  // place puts a node at a bbox given in fractions of the page.
  function place(node, bb) {
    node.style.left = (bb.left * 100) + '%'; node.style.top = (bb.top * 100) + '%';
    node.style.width = (bb.width * 100) + '%'; node.style.height = (bb.height * 100) + '%';
  }

  // Viewer: one sheet at a time in port (a scrolling box), zoom from
  // fit-to-width up to 12x, pan by scrolling or dragging.
  function Viewer(port, opts) {
    var v = this;
    v.port = port; v.opts = opts; v.zoom = 1; v.key = null; v.sheet = null; v.pending = null;
    var frame = 0;
    port.addEventListener('scroll', function () {
      if (!frame) frame = requestAnimationFrame(function () { frame = 0; v.paint(); });
    });
    // Mouse drag pans (touch pans natively); a drag is not a click.
    var drag = null;
    port.addEventListener('pointerdown', function (ev) {
      if (ev.pointerType !== 'mouse' || ev.button !== 0 || (opts.drawing && opts.drawing())) return;
      drag = { x: ev.clientX, y: ev.clientY, left: port.scrollLeft, top: port.scrollTop, moved: false };
    });
    window.addEventListener('pointermove', function (ev) {
      if (!drag) return;
      var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      drag.moved = true; port.classList.add('panning');
      port.scrollLeft = drag.left - dx; port.scrollTop = drag.top - dy;
    });
    window.addEventListener('pointerup', function () {
      if (drag && drag.moved) {
        // Swallow the click that ends a drag.
        port.addEventListener('click', function stop(e) { e.stopPropagation(); e.preventDefault(); }, { capture: true, once: true });
        setTimeout(function () { port.classList.remove('panning'); }, 0);
      }
      drag = null;
    });
    port.addEventListener('wheel', function (ev) {
      if (!ev.ctrlKey) return;
      ev.preventDefault();
      var r = port.getBoundingClientRect();
      v.step(ev.deltaY < 0 ? 1 : -1, { x: ev.clientX - r.left, y: ev.clientY - r.top });
    }, { passive: false });
    port.addEventListener('dblclick', function (ev) {
      if (ev.target.closest('.box')) return;
      var r = port.getBoundingClientRect();
      v.step(ev.shiftKey ? -1 : 1, { x: ev.clientX - r.left, y: ev.clientY - r.top });
    });
    window.addEventListener('resize', function () { if (v.sheet && v.sheet.ratio) v.setZoom(v.zoom); });
  }
  Viewer.prototype.fitWidth = function () { return Math.max(100, this.port.clientWidth); };
  // show puts the sheet key in the port (at fit-to-width when it was not
  // shown); it resolves when its image is there.
  Viewer.prototype.show = function (key) {
    var v = this;
    if (v.key === key && v.pending) return v.pending;
    v.key = key; v.zoom = 1;
    var sheet = new Sheet(v.opts.src(key), v.opts.alt(key));
    sheet.canvas.dataset.sheet = key;
    v.port.textContent = '';
    v.port.appendChild(sheet.canvas);
    v.sheet = sheet;
    v.port.setAttribute('aria-busy', 'true');
    if (v.opts.loading) v.opts.loading(true);
    if (v.opts.shown) v.opts.shown(key, sheet.canvas);
    v.pending = sheet.ready.then(function () {
      if (v.sheet !== sheet) return sheet;
      v.port.removeAttribute('aria-busy');
      if (v.opts.loading) v.opts.loading(false);
      sheet.size(v.fitWidth());
      v.port.scrollLeft = 0; v.port.scrollTop = 0;
      v.paint();
      return sheet;
    }, function (e) {
      if (v.opts.loading) v.opts.loading(false, e.message);
      throw e;
    });
    return v.pending;
  };
  Viewer.prototype.view = function () {
    var p = this.port;
    return { left: p.scrollLeft, top: p.scrollTop, width: p.clientWidth, height: p.clientHeight };
  };
  // paint loads what the view needs; done(n) when its tiles are in.
  Viewer.prototype.paint = function (done) {
    if (!this.sheet || !this.sheet.w) { if (done) done(0); return; }
    this.sheet.paint(this.view(), done);
  };
  // setZoom sets the zoom (1 = fit to width), keeping the point at focus
  // (port pixels; default the centre) where it is.
  Viewer.prototype.setZoom = function (z, focus, done) {
    var v = this, s = v.sheet;
    if (!s || !s.ratio) return;
    z = Math.max(ZOOMS[0], Math.min(ZOOMS[ZOOMS.length - 1], z));
    var p = v.port, f = focus || { x: p.clientWidth / 2, y: p.clientHeight / 2 };
    var fx = (p.scrollLeft + f.x) / s.w, fy = (p.scrollTop + f.y) / s.h;
    v.zoom = z;
    s.size(v.fitWidth() * z);
    p.scrollLeft = fx * s.w - f.x; p.scrollTop = fy * s.h - f.y;
    v.paint(done);
    if (v.opts.zoomed) v.opts.zoomed(z);
  };
  // step zooms in (+1) or out (-1) to the next of ZOOMS.
  Viewer.prototype.step = function (dir, focus, done) {
    var z = this.zoom, next = z;
    for (var i = 0; i < ZOOMS.length; i++) {
      if (dir > 0 && ZOOMS[i] > z + 0.01) { next = ZOOMS[i]; break; }
      if (dir < 0 && ZOOMS[i] < z - 0.01) next = ZOOMS[i];
    }
    this.setZoom(next, focus, done);
  };
  Viewer.prototype.pan = function (dx, dy) {
    var p = this.port;
    p.scrollLeft += dx * p.clientWidth; p.scrollTop += dy * p.clientHeight;
  };
  // frame zooms to show bb (fractions of the page) with room around it,
  // its centre in the middle of the port, and resolves when its tiles are in.
  Viewer.prototype.frame = function (bb) {
    var v = this;
    return new Promise(function (resolve) {
      var s = v.sheet, p = v.port;
      if (!s || !s.ratio) { resolve(); return; }
      var fw = v.fitWidth();
      // The box takes about a third of the port, between fit and 4x.
      var z = Math.min(p.clientWidth / (Math.max(bb.width, 0.01) * fw * 3), p.clientHeight / (Math.max(bb.height, 0.01) * fw * s.ratio * 3));
      z = Math.max(1, Math.min(4, z));
      v.zoom = z; s.size(fw * z);
      p.scrollLeft = (bb.left + bb.width / 2) * s.w - p.clientWidth / 2;
      p.scrollTop = (bb.top + bb.height / 2) * s.h - p.clientHeight / 2;
      if (v.opts.zoomed) v.opts.zoomed(z);
      v.paint(function () { resolve(); });
    });
  };

  // crop shows the part of a page around bb in holder (a phone's view of
  // a finding beside its text): the page drawn so the region fills the
  // holder, the box marked.
  function crop(holder, src, alt, bb) {
    var box = el('span', 'crop-box');
    var sheet = new Sheet(src, alt);
    holder.classList.add('crop');
    holder.setAttribute('aria-busy', 'true');
    var note = el('p', 'loading'); note.textContent = 'Loading sheet…';
    holder.appendChild(note);
    return sheet.ready.then(function () {
      note.remove(); holder.removeAttribute('aria-busy');
      var cw = holder.clientWidth, ch = holder.clientHeight;
      // Two and a half times the box, at least a sixteenth of the page's
      // width (the words readable, their surroundings in view).
      var rw = Math.max(bb.width * 2.5, 1 / 16), rh = Math.max(bb.height * 2.5, rw * cw / ch / 2);
      var w = Math.min(cw / rw, ch / (rh * sheet.ratio));
      sheet.size(Math.max(w, cw));
      var left = Math.max(0, Math.min(sheet.w - cw, (bb.left + bb.width / 2) * sheet.w - cw / 2));
      var top = Math.max(0, Math.min(sheet.h - ch, (bb.top + bb.height / 2) * sheet.h - ch / 2));
      sheet.canvas.style.transform = 'translate(' + (-left) + 'px,' + (-top) + 'px)';
      place(box, bb);
      sheet.canvas.appendChild(box);
      holder.appendChild(sheet.canvas);
      sheet.paint({ left: left, top: top, width: cw, height: ch });
    }, function (e) { note.textContent = e.message; });
  }

  window.planreviewViewer = { Viewer: Viewer, crop: crop, place: place, ZOOMS: ZOOMS };
}());
