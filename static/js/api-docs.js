// The API reference on /api/docs: Swagger UI over Plaza's own document.
// Nothing leaves Plaza: the document comes from this origin, the validator
// badge (which would send it to validator.swagger.io) is off, and the
// vendored stylesheet loads no fonts.
(function () {
  'use strict';
  // Swagger UI has a dark theme under html.dark-mode but no switch of its
  // own that follows the system: the class follows prefers-color-scheme.
  var dark = window.matchMedia('(prefers-color-scheme: dark)');
  function follow() { document.documentElement.classList.toggle('dark-mode', dark.matches); }
  follow();
  dark.addEventListener('change', follow);

  // An operation's summary is a button, and with deep linking on Swagger
  // UI puts a link to the operation (its path) inside it: a link within a
  // button, which screen readers cannot reach. The path is rendered as
  // text; the button still updates the address as it opens.
  //
  // A parameter's field (a list of allowed values, most visibly) has no
  // label: it is wrapped in one that names the parameter, read by screen
  // readers and hidden on screen, where the parameter's name is beside it.
  // The request body's text area is named too, and so is the list of
  // servers, whose label Swagger UI leaves empty (its component takes no
  // attributes for the list: the name is set once it is drawn).
  function labelled(Original, system) {
    return function (props) {
      var h = system.React.createElement;
      return h('label', { className: 'api-docs-field' },
        h('span', { className: 'api-docs-sr' }, props.description || props.keyName || 'Value'),
        h(Original, props));
    };
  }
  var accessible = {
    wrapComponents: {
      JsonSchema_string: labelled,
      JsonSchema_boolean: labelled,
      JsonSchema_object: labelled,
      TextArea: function (Original, system) {
        return function (props) {
          var body = /body-param__text/.test(props.className || '');
          return system.React.createElement(Original, body ? Object.assign({ 'aria-label': 'Request body' }, props) : props);
        };
      },
      Servers: function (Original, system) {
        return function (props) {
          var React = system.React;
          var box = React.useRef(null);
          React.useEffect(function () {
            var list = box.current && box.current.querySelector('select');
            if (list) { list.setAttribute('aria-label', 'Server'); }
          });
          return React.createElement('div', { ref: box }, React.createElement(Original, props));
        };
      },
      OperationSummaryPath: function (Original, system) {
        return function (props) {
          var ops = props.operationProps.set('isDeepLinkingEnabled', false);
          return system.React.createElement(Original, Object.assign({}, props, { operationProps: ops }));
        };
      }
    }
  };

  var root = document.getElementById('api-docs');
  window.SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    validatorUrl: null,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    syntaxHighlight: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [accessible],
    layout: 'BaseLayout'
  });
})();
