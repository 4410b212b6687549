// The API reference on /api/docs: Swagger UI over Plaza's own document.
// Nothing leaves Plaza: the document comes from this origin, the validator
// badge (which would send it to validator.swagger.io) is off, and the
// vendored stylesheet loads no fonts.
(function () {
  'use strict';
  var root = document.getElementById('api-docs');
  window.SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    validatorUrl: null,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
})();
