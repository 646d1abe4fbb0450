// The expired-link page tells the partner's page, which can mint a fresh
// link (POST /api/v1/embed) and reload the iframe.
(function () {
  'use strict';
  var m = document.getElementById('expired');
  if (!m || window.parent === window) return;
  window.parent.postMessage({ type: 'planreview:expired', screen: m.dataset.screen, jobId: m.dataset.job || null }, '*');
}());
