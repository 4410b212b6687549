package avatar

// Glasses, earrings and facial features. Index 0 of each list is "none".

var glassesParts = compileAll([]string{
	"",
	// round
	sym(`<circle cx="39.5" cy="50" r="7" fill="#fff" fill-opacity=".18" stroke="$G" stroke-width="1.9"/><path d="M32.5 49L27 47.2" fill="none" stroke="$G" stroke-width="1.9"/>`) +
		`<path d="M46.5 49.2C48.5 47.6 51.5 47.6 53.5 49.2" fill="none" stroke="$G" stroke-width="1.9"/>`,
	// rectangular
	sym(`<path d="M31.8 46.8C31.8 45.4 32.6 44.6 34 44.6H45C46.4 44.6 47.2 45.4 47.2 46.8V52.4C47.2 54.2 46.2 55.4 44.4 55.4H34.6C32.8 55.4 31.8 54.2 31.8 52.4Z" fill="#fff" fill-opacity=".18" stroke="$G" stroke-width="1.9"/><path d="M31.8 47.5L26.8 46.5" fill="none" stroke="$G" stroke-width="1.9"/>`) +
		`<path d="M47.2 48.4C49 47.2 51 47.2 52.8 48.4" fill="none" stroke="$G" stroke-width="1.9"/>`,
	// cat-eye
	sym(`<path d="M31 44.5C35 45.5 41 44.6 46.2 45.6C47.6 46 47.8 48 47.2 50.5C46.2 54.6 42.6 56 39 55.6C35 55.2 32.6 52.2 32 48.6C31.8 47.2 31.2 45.6 31 44.5Z" fill="#fff" fill-opacity=".18" stroke="$G" stroke-width="2"/><path d="M32 47L27 46.5" fill="none" stroke="$G" stroke-width="1.9"/>`) +
		`<path d="M47.6 48C49.4 47 50.6 47 52.4 48" fill="none" stroke="$G" stroke-width="1.9"/>`,
	// aviator
	sym(`<path d="M32 46.2C36 44.8 43 44.8 46.6 46.4C47.6 48.6 46.8 53.4 43.6 55.6C40.4 57.6 35.4 56.6 33.4 53.4C32 51.2 31.4 48.2 32 46.2Z" fill="#fff" fill-opacity=".18" stroke="$G" stroke-width="1.5"/><path d="M32 46.6L27 45.8" fill="none" stroke="$G" stroke-width="1.5"/>`) +
		`<path d="M46.6 46.4C48.6 45.4 51.4 45.4 53.4 46.4M46.4 48.8C48.6 48 51.4 48 53.6 48.8" fill="none" stroke="$G" stroke-width="1.5"/>`,
	// browline
	sym(`<path d="M32.6 47.8C33.4 52.8 36 55.4 39.6 55.4C43.2 55.4 46 52.8 46.6 47.8" fill="#fff" fill-opacity=".18" stroke="$G" stroke-width="1.2"/><path d="M32 48C32 45.2 34 44.6 39.6 44.6C45.2 44.6 47.2 45.2 47.2 48" fill="none" stroke="$G" stroke-width="3"/><path d="M32 47L27 46.2" fill="none" stroke="$G" stroke-width="1.9"/>`) +
		`<path d="M47.2 47.6C49 46.4 51 46.4 52.8 47.6" fill="none" stroke="$G" stroke-width="1.9"/>`,
	// sunglasses
	sym(`<path d="M31.6 46C31.6 44.8 32.4 44.2 33.6 44.2H45.4C46.6 44.2 47.4 44.8 47.4 46C47.4 51.4 45 55.2 40.4 55.2C35.2 55.2 31.6 51.4 31.6 46Z" fill="#2d1e1a" fill-opacity=".88" stroke="$G" stroke-width="1.9"/><path d="M34.5 47.4L37.5 45.8" fill="none" stroke="#fff" stroke-opacity=".7" stroke-width="1.3"/><path d="M31.6 46.4L26.8 45.6" fill="none" stroke="$G" stroke-width="1.9"/>`) +
		`<path d="M47.4 47.4C49 46.2 51 46.2 52.6 47.4" fill="none" stroke="$G" stroke-width="1.9"/>`,
})

// glassesWeights: a quarter of the faces wear glasses.
var glassesWeights = cumulative([]uint16{36, 2, 2, 2, 2, 2, 2})

var earringParts = compileAll([]string{
	"",
	sym(`<circle cx="22.6" cy="57.6" r="1.6" fill="$E" stroke-width="1.1"/>`),
	sym(`<path d="M22.8 57.4C18.4 58 18 64.6 21.8 65.4C25.4 66 27 61.8 25.2 59.2" fill="none" stroke-width="3.2"/><path d="M22.8 57.4C18.4 58 18 64.6 21.8 65.4C25.4 66 27 61.8 25.2 59.2" fill="none" stroke="$E" stroke-width="1.4"/>`),
	sym(`<circle cx="22.6" cy="57.6" r="1.2" fill="$E" stroke-width="1"/><path d="M22.6 58.8V61" fill="none" stroke-width="1"/><path d="M22.6 61C20.6 63.6 20.8 65.6 22.6 65.6C24.4 65.6 24.6 63.6 22.6 61Z" fill="$E" stroke-width="1.1"/>`),
	sym(`<circle cx="22.6" cy="58.4" r="2.1" fill="#f7f1e6" stroke-width="1.1"/><circle cx="22" cy="57.8" r=".6" fill="#fff"` + noStroke + `/>`),
	sym(`<circle cx="22.4" cy="58" r="1.3" fill="$E" stroke-width="1"/><circle cx="20.4" cy="55" r="1" fill="$E" stroke-width="1"/>`),
	sym(`<circle cx="22.6" cy="57.6" r="1.1" fill="$E" stroke-width="1"/><path d="M22.6 58.8L19.8 64.6H25.4Z" fill="$E" stroke-width="1.1"/>`),
})

// earringWeights: about a quarter of the faces wear earrings.
var earringWeights = cumulative([]uint16{34, 2, 2, 2, 2, 2, 2})

const (
	freckles = `<g fill="#7a3f23" fill-opacity=".45" stroke="none">` +
		`<circle cx="34" cy="57" r=".7"/><circle cx="36.6" cy="58.2" r=".7"/><circle cx="35.4" cy="55.6" r=".6"/><circle cx="38" cy="56.6" r=".6"/>` +
		`<circle cx="66" cy="57" r=".7"/><circle cx="63.4" cy="58.2" r=".7"/><circle cx="64.6" cy="55.6" r=".6"/><circle cx="62" cy="56.6" r=".6"/></g>`
	blush = `<ellipse cx="35" cy="58.5" rx="3.8" ry="2.2" fill="$R"` + noStroke + `/><ellipse cx="65" cy="58.5" rx="3.8" ry="2.2" fill="$R"` + noStroke + `/>`
)

var featureParts = compileAll([]string{
	"",
	freckles,
	blush,
	`<circle cx="57.8" cy="62" r=".9" fill="` + outline + `"` + noStroke + `/>`,
	// full beard, from the sideburns round the chin, below the mouth
	`<path d="M25.6 50C26 66 35 80 50 81.5C65 80 74 66 74.4 50C72.5 57 69 62 64 64.5C61 66 58.5 66.8 57.5 68C55.5 72.5 44.5 72.5 42.5 68C41.5 66.8 39 66 36 64.5C31 62 27.5 57 25.6 50Z" fill="$H"/>` +
		`<path d="M50 59.6C47 58.2 42.6 58.8 41.4 62C44 61.2 47 61.8 50 61.2C53 61.8 56 61.2 58.6 62C57.4 58.8 53 58.2 50 59.6Z" fill="$H" stroke-width="1.4"/>`,
	// moustache
	`<path d="M50 59.6C47 58.2 42.6 58.8 41.4 62C44 61.2 47 61.8 50 61.2C53 61.8 56 61.2 58.6 62C57.4 58.8 53 58.2 50 59.6Z" fill="$H" stroke-width="1.4"/>`,
	// stubble
	`<path d="M26.8 54C28.5 64 35 75.8 50 76.9C65 75.8 71.5 64 73.2 54C70 60 66 63 61 63C57 63 54 60.5 50 60.5C46 60.5 43 63 39 63C34 63 30 60 26.8 54Z" fill="$h" fill-opacity=".2"` + noStroke + `/>`,
	freckles + blush,
	// goatee
	`<path d="M44.5 70.5C45 75 47.5 77.2 50 77.2C52.5 77.2 55 75 55.5 70.5C53.5 71.8 46.5 71.8 44.5 70.5Z" fill="$H" stroke-width="1.4"/>`,
})

// featureWeights: about half of the faces have one.
var featureWeights = cumulative([]uint16{16, 3, 4, 2, 1, 1, 1, 2, 1})
