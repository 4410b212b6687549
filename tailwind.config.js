/** @type {import('tailwindcss').Config} */
// Tailwind scans the templ sources only; the generated *_templ.go files
// carry the same class strings, so scanning them would add nothing.
const colors = require('tailwindcss/colors');

module.exports = {
  content: ['./views/**/*.templ'],
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
