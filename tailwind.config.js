/** @type {import('tailwindcss').Config} */
// Tailwind scans the templ sources, Plaza's own scripts, which set classes
// too (the console's toasts), and views/api_docs.go, which names the API
// reference's method badges; the generated *_templ.go files carry
// the same class strings as the templ sources, and the vendored htmx sets
// no class of ours, so neither is scanned.
const colors = require('tailwindcss/colors');

module.exports = {
  content: ['./views/**/*.templ', './views/api_docs.go', './static/js/console.js', './static/js/live-queue.js', './static/js/og-viewer.js', './static/js/api-docs.js'],
  theme: {
    extend: {
      colors: {
        // One accent colour for the whole console; neutrals come from slate.
        accent: colors.indigo,
      },
      fontFamily: {
        sans: [
          'Inter',
          'ui-sans-serif',
          'system-ui',
          '-apple-system',
          'Segoe UI',
          'Roboto',
          'Helvetica Neue',
          'Arial',
          'sans-serif',
        ],
      },
    },
  },
  plugins: [],
};
