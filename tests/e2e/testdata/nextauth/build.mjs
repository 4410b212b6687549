// Bundles next-auth/react's client functions into one script the browser
// tests inject into a page of Plaza's (tests/e2e/nextauth_test.go), with
// the licenses of everything bundled beside it. `npm run build:nextauth`
// runs it from the repository's root; `make check-assets` proves the
// committed output is what it makes.
import { build } from "esbuild"
import { readFileSync, writeFileSync, existsSync } from "node:fs"
import { join } from "node:path"

const dir = "tests/e2e/testdata/nextauth"

// next-auth's package ships no licence file; this is its repository's.
const nextAuthLicense = `ISC License

Copyright (c) 2022-2024, Balázs Orbán

Permission to use, copy, modify, and/or distribute this software for any
purpose with or without fee is hereby granted, provided that the above
copyright notice and this permission notice appear in all copies.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
`

const result = await build({
  stdin: {
    contents: `export { getSession, getCsrfToken, getProviders, signIn, signOut } from "next-auth/react"`,
    resolveDir: process.cwd(),
    sourcefile: "next-auth-client.js",
  },
  bundle: true,
  format: "iife",
  globalName: "NextAuth",
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none",
  metafile: true,
  write: false,
  // In a browser next-auth reads no environment: with NEXTAUTH_URL unset
  // its client calls the relative /api/auth, the page's own origin.
  define: {
    "process.env.NODE_ENV": '"production"',
    "process.env.NEXTAUTH_URL": "undefined",
    "process.env.NEXTAUTH_URL_INTERNAL": "undefined",
    "process.env.VERCEL_URL": "undefined",
  },
})

const packages = new Map()
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)
  if (m) packages.set(m[1], join("node_modules", m[1]))
}
const names = [...packages.keys()].sort()
const version = (name) => JSON.parse(readFileSync(join(packages.get(name), "package.json"), "utf8"))

const header = `/* next-auth/react's getSession, getCsrfToken, getProviders, signIn and signOut as window.NextAuth,
   bundled by ${dir}/build.mjs from ${names.map((n) => n + " " + version(n).version).join(", ")};
   their licences are in LICENSE beside this file. */\n`
writeFileSync(join(dir, "next-auth-client.min.js"), header + result.outputFiles[0].text)

const notices = names.map((name) => {
  const pkg = version(name)
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt"].map((f) => join(packages.get(name), f)).find(existsSync)
  const text = file ? readFileSync(file, "utf8") : name === "next-auth" ? nextAuthLicense : null
  if (!text) throw new Error(`no licence text for ${name}`)
  return `${name} ${pkg.version} (${pkg.license})\n\n${text.trim()}\n`
})
writeFileSync(join(dir, "LICENSE"), notices.join("\n" + "-".repeat(72) + "\n\n"))
