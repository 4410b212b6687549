package avatar

// The face: head, ears, neck and clothes, noses, eyes, eyebrows and mouths.
// Coordinates are in the 100x100 scene: the head spans x 26..74 and y
// 17..77, the eyes sit at (39.5, 50) and (60.5, 50), the mouth around
// (50, 66). Every part is original artwork drawn for Plaza.

const (
	white    = "#fff"
	mouthIn  = "#7a2733" // inside of an open mouth
	tongue   = "#f0808a"
	noStroke = ` stroke="none"`
)

var headPart = compile(
	// ears, then the head over their inner edge
	sym(`<path d="M29 45C21 39 16.5 45 18 51C19.5 57 24.5 59.5 30 56Z" fill="$S"/>`+
		`<path d="M25 47.5C22 47.8 21.8 52.5 24.8 53.8" fill="none" stroke-width="1.4"/>`) +
		`<path d="M50 18C67 18 75 29 75 46C75 59 71 67 65 72C60.5 75.8 55.5 77.5 50 77.5C44.5 77.5 39.5 75.8 35 72C29 67 25 59 25 46C25 29 33 18 50 18Z" fill="$S"/>`)

// clothesParts each draw the neck and then a top over its lower end.
var clothesParts = compileAll([]string{
	neck + `<path d="M13 102C14 91 25 84.5 39.5 82.5C43 87.5 57 87.5 60.5 82.5C75 84.5 86 91 87 102Z" fill="$C"/>` +
		`<path d="M41 84.2C44.5 88.5 55.5 88.5 59 84.2" fill="none" stroke="$c" stroke-width="1.6"/>`,
	neck + `<path d="M13 102C14 91 25 84.5 39.5 82.5L50 94L60.5 82.5C75 84.5 86 91 87 102Z" fill="$C"/>`,
	neck + `<path d="M13 102C14 91 25 84.5 39.5 82.5C43 87.5 57 87.5 60.5 82.5C75 84.5 86 91 87 102Z" fill="$C"/>` +
		sym(`<path d="M39.5 82.5L50 88.5L44 95L36.5 84.5Z" fill="$c"/>`),
	neck + `<path d="M13 102C14 91 25 85.5 38 84V79.5C44 82.5 56 82.5 62 79.5V84C75 85.5 86 91 87 102Z" fill="$C"/>` +
		`<path d="M38 84C44 87 56 87 62 84" fill="none" stroke="$c" stroke-width="1.6"/>`,
})

const neck = `<path d="M41.5 64V86H58.5V64Z" fill="$S"/>` +
	`<path d="M42.5 74C46 79 54 79 57.5 74V80.5C54 83.5 46 83.5 42.5 80.5Z" fill="$s"` + noStroke + `/>`

var noseParts = compileAll([]string{
	`<path d="M50 53C48.8 56 48.8 58.2 51.6 58" fill="none" stroke-width="1.6"/>`,
	`<path d="M47.6 57.2C49 58.6 51 58.6 52.4 57.2" fill="none" stroke-width="1.6"/>`,
	`<ellipse cx="50" cy="56.8" rx="2.6" ry="1.8" fill="$s"` + noStroke + `/>`,
	`<path d="M50.6 51.5C49.2 54.5 47 57 48.6 58.2C49.6 58.9 51.4 58.6 52.4 57.8" fill="none" stroke-width="1.6"/>`,
})

// Eye building blocks, for the left eye at (39.5, 50); sym adds the right.
const (
	eyeWhiteRound  = `<ellipse cx="39.5" cy="50" rx="5.6" ry="6.1" fill="#fff" stroke-width="1.8"/>`
	eyeIrisRound   = `<circle cx="39.5" cy="51" r="4" fill="$I"` + noStroke + `/><circle cx="39.5" cy="51" r="2" fill="` + outline + `"` + noStroke + `/>`
	eyeWhiteAlmond = `<path d="M33.5 50.5C35 45.5 44 45.5 45.5 50.5C44 54.2 35 54.2 33.5 50.5Z" fill="#fff" stroke-width="1.6"/>`
	eyeIrisAlmond  = `<circle cx="39.5" cy="50.3" r="3.3" fill="$I"` + noStroke + `/><circle cx="39.5" cy="50.3" r="1.7" fill="` + outline + `"` + noStroke + `/>`
	eyeLidAlmond   = `<path d="M33 50.8C35 44.8 44 44.8 46 50.2" fill="none" stroke-width="2.6"/>`
	eyeLidRound    = `<path d="M33.6 48.4C34.6 43.2 44.4 43.2 45.4 48.4" fill="none" stroke-width="2.6"/>`
	eyeLash        = `<path d="M34.2 47.6L31.6 46M35.6 46.2L33.8 44" fill="none" stroke-width="1.5"/>`
	eyeHappy       = `<path d="M34 51.5C35.5 46.5 43.5 46.5 45 51.5" fill="none" stroke-width="2.6"/>`
	eyeClosed      = `<path d="M34 49.5C35.5 53.8 43.5 53.8 45 49.5" fill="none" stroke-width="2.6"/>`
	eyeDot         = `<ellipse cx="39.5" cy="50" rx="2.5" ry="3.3" fill="` + outline + `"` + noStroke + `/>`
)

// shine draws the highlights of both eyes at the same offset, so that the
// light comes from one side.
func shine(dx, dy, r string) string {
	return `<circle cx="` + dx + `" cy="` + dy + `" r="` + r + `" fill="#fff"` + noStroke + `/>` +
		`<circle cx="` + fmtNum(parseNum(dx)+21) + `" cy="` + dy + `" r="` + r + `" fill="#fff"` + noStroke + `/>`
}

var eyeParts = compileAll([]string{
	sym(eyeWhiteRound+eyeIrisRound) + shine("41", "49.4", "1.2"),
	sym(eyeWhiteRound+eyeIrisRound+eyeLidRound) + shine("41", "49.4", "1.2"),
	sym(eyeWhiteAlmond+eyeIrisAlmond+eyeLidAlmond) + shine("40.8", "49", "1.1"),
	sym(eyeWhiteAlmond+eyeIrisAlmond+eyeLidAlmond+eyeLash) + shine("40.8", "49", "1.1"),
	sym(eyeHappy),
	sym(eyeHappy + `<path d="M34.4 49.6L32 48.8" fill="none" stroke-width="1.5"/>`),
	sym(eyeClosed + `<path d="M35.3 52.2L34 54.3M38 53.3L37.5 55.6" fill="none" stroke-width="1.4"/>`),
	eyeHappy + mirror(eyeWhiteRound+eyeIrisRound) + `<circle cx="62" cy="49.4" r="1.2" fill="#fff"` + noStroke + `/>`,
	// sleepy: the lid covers the top half
	sym(`<path d="M33.8 50H45.2C45.2 54.4 33.8 54.4 33.8 50Z" fill="#fff" stroke-width="1.6"/>`+
		`<path d="M36 50A3.5 3.5 0 0 0 43 50Z" fill="$I"`+noStroke+`/><path d="M37.8 50A1.7 1.7 0 0 0 41.2 50Z" fill="`+outline+`"`+noStroke+`/>`+
		`<path d="M33 50H46" fill="none" stroke-width="2.6"/>`) + shine("40.8", "51.3", ".8"),
	// surprised
	sym(`<ellipse cx="39.5" cy="49.5" rx="5.2" ry="6.2" fill="#fff" stroke-width="1.8"/><circle cx="39.5" cy="50" r="2.3" fill="`+outline+`"`+noStroke+`/>`) + shine("40.4", "49.2", ".8"),
	// angry
	sym(`<path d="M34 47.4L45.2 50.6C44.8 54.6 35.2 55.2 34 51Z" fill="#fff" stroke-width="1.6"/>`+
		`<circle cx="40" cy="51.6" r="2.7" fill="$I"`+noStroke+`/><circle cx="40" cy="51.6" r="1.4" fill="`+outline+`"`+noStroke+`/>`+
		`<path d="M33 46.8L46.2 50.8" fill="none" stroke-width="2.6"/>`) + shine("40.8", "50.8", ".8"),
	// worried
	sym(`<path d="M34 50.6L45.2 47.4C46 51 44 55 39 54.5C35.5 54.2 34 52.5 34 50.6Z" fill="#fff" stroke-width="1.6"/>`+
		`<circle cx="39.4" cy="51.5" r="2.8" fill="$I"`+noStroke+`/><circle cx="39.4" cy="51.5" r="1.4" fill="`+outline+`"`+noStroke+`/>`+
		`<path d="M33 51L46.2 47" fill="none" stroke-width="2.6"/>`) + shine("40.3", "50.6", ".8"),
	sym(eyeDot) + shine("40.3", "48.8", ".9"),
	sym(eyeDot+eyeLash) + shine("40.3", "48.8", ".9"),
	// glancing to one side
	sym(eyeWhiteRound) + eyeIrisSide("41.3") + eyeIrisSide("62.3") + shine("42.6", "49.4", "1.1"),
	// looking up
	sym(eyeWhiteRound+`<circle cx="39.5" cy="48.6" r="3.4" fill="$I"`+noStroke+`/><circle cx="39.5" cy="48.6" r="1.7" fill="`+outline+`"`+noStroke+`/>`+eyeLidRound) + shine("40.7", "47.4", "1"),
	// hearts
	sym(`<path d="M39.5 55C32.8 50.8 33.6 45 37 45.6C38.4 45.9 39.2 47 39.5 48C39.8 47 40.6 45.9 42 45.6C45.4 45 46.2 50.8 39.5 55Z" fill="#ec4d66" stroke-width="1.6"/>`) + shine("41.6", "47.8", ".9"),
	// sparkly
	sym(`<ellipse cx="39.5" cy="50" rx="5.4" ry="6.2" fill="#fff" stroke-width="1.8"/><ellipse cx="39.5" cy="50.8" rx="3.9" ry="4.6" fill="$I"`+noStroke+`/><ellipse cx="39.5" cy="51" rx="2" ry="2.6" fill="`+outline+`"`+noStroke+`/>`+eyeLidRound) +
		shine("41.2", "48.8", "1.5") + shine("37.9", "53", ".8"),
	// squeezed shut
	sym(`<path d="M34.5 46.5L44 50L34.5 53.5" fill="none" stroke-width="2.6"/>`),
	// half-lidded
	sym(eyeWhiteRound+eyeIrisRound+`<path d="M34 50.2A5.5 5.5 0 0 1 45 50.2Z" fill="$S" stroke-width="2.2"/>`) + shine("41", "51.7", ".9"),
	// laughing to tears
	sym(eyeHappy + `<path d="M33.6 53.2C32.6 55.2 32.8 56.8 34.1 56.8C35.4 56.8 35.7 55.2 33.6 53.2Z" fill="#9bd7ff" stroke-width="1.2"/>`),
	// big with lower lashes
	sym(eyeWhiteAlmond+eyeIrisAlmond+eyeLidAlmond+`<path d="M35.5 55C37.8 56.2 41.2 56.2 43.5 55" fill="none" stroke-width="1.2"/>`) + shine("40.8", "49", "1.1"),
	// lid crease
	sym(eyeWhiteRound+eyeIrisRound+`<path d="M34.5 43.6C37 41.8 42 41.8 44.5 43.6" fill="none" stroke-width="1.3"/>`) + shine("41", "49.4", "1.2"),
	// smiling eyes: a lower lid pushed up
	sym(`<path d="M34 51.5C34 45 45 45 45 51.5C42 49.8 37 49.8 34 51.5Z" fill="#fff" stroke-width="1.8"/><path d="M36.6 49.4C36.8 46.2 42.2 46.2 42.4 49.4C40.6 49 38.4 49 36.6 49.4Z" fill="$I"`+noStroke+`/>`) + shine("40.6", "48.1", ".8"),
})

// eyeWeights favour friendly looks; every eye still shows up.
var eyeWeights = cumulative([]uint16{4, 4, 4, 4, 4, 4, 3, 3, 1, 1, 1, 1, 3, 3, 2, 2, 2, 4, 1, 1, 2, 3, 3, 4})

func eyeIrisSide(cx string) string {
	return `<circle cx="` + cx + `" cy="50.8" r="3.3" fill="$I"` + noStroke + `/><circle cx="` + cx + `" cy="50.8" r="1.7" fill="` + outline + `"` + noStroke + `/>`
}

// Eyebrows, drawn in the brow colour (a dark shade of the hair).
const browLine = `" fill="none" stroke="$b" stroke-width="`

var browParts = compileAll([]string{
	sym(`<path d="M34 42C36 39 42 38.5 45.5 40.5` + browLine + `2.6"/>`),
	sym(`<path d="M34 41.2H45.5` + browLine + `2.6"/>`),
	sym(`<path d="M34 39C36 35.5 42 35 45.5 37.5` + browLine + `2.4"/>`),
	sym(`<path d="M34 38.5L45.5 42.5` + browLine + `2.8"/>`),
	sym(`<path d="M34 41.5C38 41 42 39.5 45.5 37` + browLine + `2.6"/>`),
	sym(`<path d="M33.5 40C37 38 42 38 46 39.5L45.8 42C42 41 37 41 33.8 42.5Z" fill="$b" stroke="$b" stroke-width="1"/>`),
	sym(`<path d="M34 41.5C36 38.6 42 38 45.5 40` + browLine + `1.5"/>`),
	`<path d="M34 39C36 35.5 42 35 45.5 37.5` + browLine + `2.4"/>` + mirror(`<path d="M34 41.2H45.5`+browLine+`2.6"/>`),
	sym(`<path d="M33.5 42.2C34 39.5 35 38.5 36 39.5C36.5 37.5 38.5 37 39.5 38.5C40.5 37 43 37.2 43.5 38.8C45 38.5 46.3 39.8 46 41.2C42 40.2 37 40.6 33.5 42.2Z" fill="$b" stroke="$b" stroke-width="1"/>`),
	sym(`<path d="M37 40.5H43` + browLine + `3.2"/>`),
	sym(`<path d="M33.5 42.5C36 38.5 42 37.5 46 40C42 39.3 37.5 40 33.5 42.5Z" fill="$b" stroke="$b" stroke-width="1.2"/>`),
	sym(`<path d="M34 41C36 38 39 42 45.5 39` + browLine + `2.4"/>`),
	sym(`<path d="M34.5 42.5C37.5 41 42 41 45 42` + browLine + `2.4"/>`),
	sym(`<path d="M33.5 42L46 42.5` + browLine + `3.6"/>`),
	sym(`<path d="M33.5 38C38 38.5 42 40 46 42.5L45 44C41.5 42.5 37.5 41.5 33.5 40.8Z" fill="$b" stroke="$b" stroke-width="1"/>`),
	sym(`<path d="M34.5 37C37 34.5 42 34.5 45 36` + browLine + `1.8"/>`),
})

// browWeights make cross and worried brows the rarer ones.
var browWeights = cumulative([]uint16{2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 1, 1, 2})

// mouthWeights favour smiles; every mouth still shows up.
var mouthWeights = cumulative([]uint16{5, 5, 4, 2, 3, 1, 1, 1, 3, 3, 1, 4, 1, 2, 4, 3, 2, 1, 1, 4, 3, 4, 4, 1, 1, 3, 2, 2, 4, 4})

// Mouth building blocks.
const (
	teethTop = `<path d="M44 64H56V65.3C52 66.3 48 66.3 44 65.3Z" fill="#fff"` + noStroke + `/>`
)

var mouthParts = compileAll([]string{
	`<path d="M44 64C47 67.5 53 67.5 56 64" fill="none" stroke-width="2.2"/>`,
	`<path d="M42.5 63H57.5C57.5 69 54 72 50 72C46 72 42.5 69 42.5 63Z" fill="` + mouthIn + `"/>` +
		`<path d="M45.8 70C47.5 68.3 52.5 68.3 54.2 70C52.8 71 47.2 71 45.8 70Z" fill="` + tongue + `"` + noStroke + `/>` +
		`<path d="M43.8 64H56.2V65.4C52 66.4 48 66.4 43.8 65.4Z" fill="#fff"` + noStroke + `/>`,
	`<path d="M41.5 63C45 65.5 55 65.5 58.5 63C57.5 68.5 54 71 50 71C46 71 42.5 68.5 41.5 63Z" fill="#fff"/>` +
		`<path d="M42.6 66.2C47 67.8 53 67.8 57.4 66.2" fill="none" stroke-width="1.2"/>`,
	`<path d="M45 66H55" fill="none" stroke-width="2.2"/>`,
	`<path d="M45 66C49 67 53 66 56 63" fill="none" stroke-width="2.2"/>`,
	`<path d="M44.5 68C47 64.5 53 64.5 55.5 68" fill="none" stroke-width="2.2"/>`,
	`<ellipse cx="50" cy="66.5" rx="3.2" ry="4" fill="` + mouthIn + `"/>`,
	`<circle cx="51" cy="66" r="1.9" fill="` + mouthIn + `" stroke-width="1.8"/>`,
	`<path d="M47 65.8V68.5C47 71.8 53 71.8 53 68.5V65.8Z" fill="` + tongue + `" stroke-width="1.6"/><path d="M50 66.5V69" fill="none" stroke-width="1"/>` +
		`<path d="M43.5 64C47 67 53 67 56.5 64" fill="none" stroke-width="2.2"/>`,
	`<path d="M44 64C45.5 67 48.5 67 50 64.5C51.5 67 54.5 67 56 64" fill="none" stroke-width="2"/>`,
	`<path d="M43.5 66C45 64 47 64 48.5 66C50 68 52 68 53.5 66C55 64 56.5 64 57 65" fill="none" stroke-width="2"/>`,
	`<path d="M41 62.5H59C59 70 55 74 50 74C45 74 41 70 41 62.5Z" fill="` + mouthIn + `"/>` +
		`<path d="M44.5 71.8C46.5 69.5 53.5 69.5 55.5 71.8C53.5 73 46.5 73 44.5 71.8Z" fill="` + tongue + `"` + noStroke + `/>` +
		`<path d="M42.3 63.5H57.7V65C52.5 66.2 47.5 66.2 42.3 65Z" fill="#fff"` + noStroke + `/>`,
	`<rect x="42" y="62.5" width="16" height="7" rx="3" fill="#fff"/><path d="M42.6 66H57.4M46 63V69M50 63V69M54 63V69" fill="none" stroke-width="1.1"/>`,
	`<path d="M46 64.3H54V65.8C52 66.8 48 66.8 46 65.8Z" fill="#fff" stroke-width="1.2"/><path d="M44 66.3C47 68.8 53 68.8 56 66.3" fill="none" stroke-width="2.2"/>`,
	`<path d="M45.5 64H54.5C54.5 68 52.5 69.6 50 69.6C47.5 69.6 45.5 68 45.5 64Z" fill="` + mouthIn + `"/>` +
		`<path d="M47.6 68.3C48.8 67.3 51.2 67.3 52.4 68.3C51.4 68.8 48.6 68.8 47.6 68.3Z" fill="` + tongue + `"` + noStroke + `/>`,
	`<path d="M43 63.5C47 66 54 65.5 58 62C57.5 67.5 54 70 50 70C46 70 43.5 67.5 43 63.5Z" fill="` + mouthIn + `"/>` +
		`<path d="M44.4 64.6C48 66.4 53.5 66 56.8 63.6L56.6 64.9C53.5 67 48 67.4 44.6 65.6Z" fill="#fff"` + noStroke + `/>`,
	`<path d="M48.5 62.5C52 62 52.5 65 50 65.6C52.5 66.2 52 69.2 48.5 68.7" fill="none" stroke-width="2"/>`,
	`<path d="M44 70C44 65 47 63 50 63C53 63 56 65 56 70Z" fill="` + mouthIn + `"/>` +
		`<path d="M46.5 69.2C47.5 67.8 52.5 67.8 53.5 69.2Z" fill="` + tongue + `"` + noStroke + `/>`,
	`<rect x="44" y="63.5" width="12" height="5" rx="2.5" fill="` + mouthIn + `"/><path d="M45.4 64.5H54.6V65.6H45.4Z" fill="#fff"` + noStroke + `/>`,
	`<path d="M42 63C45 69 55 69 58 63" fill="none" stroke-width="2.2"/><path d="M41 61.8L42.6 63.8M59 61.8L57.4 63.8" fill="none" stroke-width="1.4"/>`,
	`<path d="M42.5 63H57.5C57.5 69 54 72 50 72C46 72 42.5 69 42.5 63Z" fill="` + mouthIn + `"/>` +
		`<path d="M46.2 64H49.6V66.6H46.2ZM50.4 64H53.8V66.6H50.4Z" fill="#fff"` + noStroke + `/>`,
	`<path d="M43 64C46 62.5 48.5 63 50 63.8C51.5 63 54 62.5 57 64C54.5 68.8 45.5 68.8 43 64Z" fill="$L"/><path d="M43.6 64.2C47 65.6 53 65.6 56.4 64.2" fill="none" stroke-width="1.2"/>`,
	`<path d="M47 65C48.5 66.6 51.5 66.6 53 65" fill="none" stroke-width="2"/>`,
	`<path d="M43.5 66.5L46.5 64.5L49.5 66.5L52.5 64.5L55.5 66.5" fill="none" stroke-width="2"/>`,
	`<path d="M42 66C42 62.5 58 62.5 58 66C58 69.5 42 69.5 42 66Z" fill="#fff"/><path d="M42.6 66H57.4" fill="none" stroke-width="1.1"/>`,
	`<path d="M52.2 66C52 69.2 55.6 70.2 56.8 67.4L56 64.8Z" fill="` + tongue + `" stroke-width="1.5"/><path d="M43.5 64C47 67.5 53 67.5 57 64" fill="none" stroke-width="2.2"/>`,
	`<path d="M43.5 63.5C47 68.5 53 68.5 56.5 63.5Z" fill="` + mouthIn + `"/><path d="M45.3 64.2L46.4 66.4L47.5 64.5ZM52.5 64.5L53.6 66.4L54.7 64.2Z" fill="#fff" stroke-width=".8"/>`,
	`<ellipse cx="50" cy="66.5" rx="5" ry="3.1" fill="` + mouthIn + `"/><path d="M47 68.2C48.5 67 51.5 67 53 68.2C51.5 69 48.5 69 47 68.2Z" fill="` + tongue + `"` + noStroke + `/>`,
	`<path d="M43 63.5C46 64.5 54 64.5 57 63.5C56 68.5 53 70 50 70C47 70 44 68.5 43 63.5Z" fill="` + mouthIn + `"/>` + teethTop,
	`<path d="M44.5 64.5C47.5 66.8 52.5 66.8 55.5 64.5" fill="none" stroke-width="2.2"/><path d="M48 69C49.3 69.6 50.7 69.6 52 69" fill="none" stroke-width="1.4"/>`,
})
