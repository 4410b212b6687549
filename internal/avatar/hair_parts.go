package avatar

// Hair: each style is a back piece, drawn behind the head and the
// shoulders (in the hair's shade), and a front piece, drawn over the
// forehead after the eyebrows (in the hair colour, with a highlight).

type hairStyle struct{ back, front string }

const (
	hl = `" fill="none" stroke="$K" stroke-width="1.6"/>` // closes a highlight path

	// Back pieces.
	backBob       = `<path d="M20.5 52C17 26 31 9 50 9C69 9 83 26 79.5 52C80 62 78.5 70 76 74.5C69 77 62 74 59 70H41C38 74 31 77 24 74.5C21.5 70 20 62 20.5 52Z" fill="$h"/>`
	backLong      = `<path d="M20 50C18 24 31 9 50 9C69 9 82 24 80 50C80.5 66 82 82 85 102H15C18 82 19.5 66 20 50Z" fill="$h"/>`
	backWavy      = `<path d="M20 50C18 24 31 9 50 9C69 9 82 24 80 50C78 58 84 64 82 72C80 78 86 84 84 92L85 102H15L16 92C14 84 20 78 18 72C16 64 22 58 20 50Z" fill="$h"/>`
	backShoulder  = `<path d="M20.5 50C18 24 31 9 50 9C69 9 82 24 79.5 50C79.5 62 80 74 86 82C80 86 72 84 68 80H32C28 84 20 86 14 82C20 74 20.5 62 20.5 50Z" fill="$h"/>`
	backPony      = `<path d="M66 24C79 20 89 31 87 46C86 57 90 66 85 76C80 71 76 61 74 50Z" fill="$h"/><path d="M71 26.5L76 30" fill="none" stroke="$C" stroke-width="3.6"/>`
	backHighPony  = `<path d="M58 14C66 2 84 3 88 16C91 27 86 40 89 52C82 49 79 39 78 30C77 24 72 20 66 21Z" fill="$h"/><circle cx="64" cy="15" r="3" fill="$C"/>`
	backTopBun    = `<circle cx="50" cy="8.5" r="8.5" fill="$h"/>`
	backManBun    = `<circle cx="50" cy="9.5" r="6" fill="$h"/>`
	backAfro      = `<path d="M83 38A7.5 7.5 0 0 1 80.5 49.9A7.7 7.7 0 0 1 73.3 59.9A7.8 7.8 0 0 1 62.6 66.6A8 8 0 0 1 50 69A8 8 0 0 1 37.4 66.6A7.8 7.8 0 0 1 26.7 59.9A7.7 7.7 0 0 1 19.5 49.9A7.5 7.5 0 0 1 17 38A7.5 7.5 0 0 1 19.5 26.1A7.7 7.7 0 0 1 26.7 16.1A7.8 7.8 0 0 1 37.4 9.4A8 8 0 0 1 50 7A8 8 0 0 1 62.6 9.4A7.8 7.8 0 0 1 73.3 16.1A7.7 7.7 0 0 1 80.5 26.1A7.5 7.5 0 0 1 83 38Z" fill="$h"/>`
	backCurlyLong = `<path d="M24 90L34 70A6.3 6.3 0 0 1 25.9 63.8A6.2 6.2 0 0 1 20.4 55.5A6.1 6.1 0 0 1 18.1 46A6.1 6.1 0 0 1 19.1 36.2A6.1 6.1 0 0 1 23.4 27.3A6.3 6.3 0 0 1 30.5 20.2A6.4 6.4 0 0 1 39.7 15.6A6.5 6.5 0 0 1 50 14A6.5 6.5 0 0 1 60.3 15.6A6.4 6.4 0 0 1 69.5 20.2A6.3 6.3 0 0 1 76.6 27.3A6.1 6.1 0 0 1 80.9 36.2A6.1 6.1 0 0 1 81.9 46A6.1 6.1 0 0 1 79.6 55.5A6.2 6.2 0 0 1 74.1 63.8A6.3 6.3 0 0 1 66 70L76 90Z" fill="$h"/>`
	backCurlyBob  = `<path d="M28.8 63.2A6.2 6.2 0 0 1 23 55A6.2 6.2 0 0 1 20.2 45.4A6.2 6.2 0 0 1 20.8 35.3A6.2 6.2 0 0 1 24.6 26A6.2 6.2 0 0 1 31.3 18.5A6.2 6.2 0 0 1 40.1 13.7A6.2 6.2 0 0 1 50 12A6.2 6.2 0 0 1 59.9 13.7A6.2 6.2 0 0 1 68.7 18.5A6.2 6.2 0 0 1 75.4 26A6.2 6.2 0 0 1 79.2 35.3A6.2 6.2 0 0 1 79.8 45.4A6.2 6.2 0 0 1 77 55A6.2 6.2 0 0 1 71.2 63.2Z" fill="$h"/>`
	backPuffs     = `<path d="M33 20A4.3 4.3 0 0 1 30.4 26.4A4.6 4.6 0 0 1 23.9 29.8A4.7 4.7 0 0 1 16.5 28.7A4.4 4.4 0 0 1 11.7 23.4A4.2 4.2 0 0 1 11.7 16.6A4.4 4.4 0 0 1 16.5 11.3A4.7 4.7 0 0 1 23.9 10.2A4.6 4.6 0 0 1 30.4 13.6A4.3 4.3 0 0 1 33 20Z" fill="$h"/>` +
		`<path d="M89 20A4.3 4.3 0 0 1 86.4 26.4A4.6 4.6 0 0 1 79.9 29.8A4.7 4.7 0 0 1 72.5 28.7A4.4 4.4 0 0 1 67.7 23.4A4.2 4.2 0 0 1 67.7 16.6A4.4 4.4 0 0 1 72.5 11.3A4.7 4.7 0 0 1 79.9 10.2A4.6 4.6 0 0 1 86.4 13.6A4.3 4.3 0 0 1 89 20Z" fill="$h"/>`
	backSpaceBuns = `<circle cx="28" cy="16" r="9" fill="$h"/><circle cx="72" cy="16" r="9" fill="$h"/>`
	backPigtails  = `<path d="M27 50C18 51 12 61 13.5 73C14.5 81 20 84 23 79C21 71 24 61 30 57Z" fill="$h"/><path d="M73 50C82 51 88 61 86.5 73C85.5 81 80 84 77 79C79 71 76 61 70 57Z" fill="$h"/>`
	backNape      = `<path d="M24 46C21 28 33 13 50 13C67 13 79 28 76 46C77 56 74 64 70 68H30C26 64 23 56 24 46Z" fill="$h"/>`
	backLocs      = `<path d="M21 48C18 24 31 9 50 9C69 9 82 24 79 48L83 88A3 3 0 0 1 77 88L75 70L73 90A3 3 0 0 1 67 90L66 72H34L33 90A3 3 0 0 1 27 90L25 70L23 88A3 3 0 0 1 17 88Z" fill="$h"/>`

	// Front pieces.
	frontNeat = `<path d="M23.5 47C20 23 32 8.5 50 8.5C68 8.5 80 23 76.5 47C75.5 41 73.5 37 71 34C63 36.5 55 34.5 49 29.5C45 33.5 37 36.5 29.5 35C26.5 39 25 43 23.5 47Z" fill="$H"/>` +
		`<path d="M37 15C41 13 45 12.5 49 12.7` + hl
	frontBangs = `<path d="M23 52C19 24 33 10 50 10C67 10 81 24 77 52C75.5 47 74.2 42.5 73.2 38C66 39.4 34 39.4 26.8 38C25.8 42.5 24.5 47 23 52Z" fill="$H"/>` +
		`<path d="M36 16C40 13.8 45 13.2 49 13.4` + hl
	frontSwept = `<path d="M23.5 48C20 24 33 9 50 9C67 9 80 24 76.5 48C75.5 42 74 36.5 71 32.5C65 39.5 52 40.5 41 37.5C36.5 36 33 35 30 33.5C27.5 37.5 25 42 23.5 48Z" fill="$H"/>` +
		`<path d="M40 16C45 14 52 14 57 15.5` + hl
	frontCurtain = `<path d="M22.5 52C19 24 33 9.5 50 9.5C67 9.5 81 24 77.5 52C76 45 74 40 71 37C64 34.5 56 30.5 50 25C44 30.5 36 34.5 29 37C26 40 24 45 22.5 52Z" fill="$H"/>` +
		`<path d="M34 18C37 15.5 41 14 44 13.6` + hl
	frontSpiky = `<path d="M25 44C22.5 37 22 31 25.5 26L23 18.5L30.5 20L31.5 11.5L38.5 15L43 7L48 13L54 6L57 13.5L64 9L65 17L72 15L71 22L77 25C78 32 77.5 38 75 44C74 39 72 36 69.5 34C63 36 56 34 51 31C45 34 37 36 30.5 34C28 37 26.2 40 25 44Z" fill="$H"/>`
	frontQuiff = `<path d="M25 44C22 32 25 21 33 16C39 8 53 4.5 63 8.5C71 12 74 18 70.5 22C75.5 25.5 78 34 75 44C74 39 72 36 69.5 33.5C62 31 52 31.5 44 33C38 34 33.5 34 30.5 33.5C27.5 37 26 40 25 44Z" fill="$H"/>` +
		`<path d="M40 18C46 13 55 11.5 62 13.5` + hl
	frontCurly     = `<path d="M23.7 46.6A6 6 0 0 1 22 37A6 6 0 0 1 23.7 27.4A6 6 0 0 1 28.6 19A6 6 0 0 1 36 12.8A6 6 0 0 1 45.1 9.4A6 6 0 0 1 54.9 9.4A6 6 0 0 1 64 12.8A6 6 0 0 1 71.4 19A6 6 0 0 1 76.3 27.4A6 6 0 0 1 78 37A6 6 0 0 1 76.3 46.6C75.5 42 74 38 71.5 36A5.7 5.7 0 0 1 62.1 37.6A3.8 3.8 0 0 1 56.3 34.9A3.8 3.8 0 0 1 50 34A3.8 3.8 0 0 1 43.7 34.9A3.8 3.8 0 0 1 37.9 37.6A5.7 5.7 0 0 1 28.5 36C26 39 24.5 43 23.7 46.6Z" fill="$H"/>`
	frontBuzz      = `<path d="M26 43C25 28 35 16.5 50 16.5C65 16.5 75 28 74 43C73 38 71 35 68.5 33C60 31 40 31 31.5 33C29 35 27 38 26 43Z" fill="$H" stroke-width="1.4"/>`
	frontShaved    = `<path d="M26 43C25 28 35 16.5 50 16.5C65 16.5 75 28 74 43C73 38 71 35 68.5 33C60 31 40 31 31.5 33C29 35 27 38 26 43Z" fill="$H" fill-opacity=".35" stroke="none"/>`
	frontMohawk    = frontShaved + `<path d="M43.5 33C41 25 40 17 42 9C44 12 45 13 46.5 13C46 9 47.5 5 50.5 3C51 7 52 9.5 54 11C55 9 56.5 7.5 58.5 7C58.5 15 59 24 56.5 33Z" fill="$H"/>`
	frontBald      = `<path d="M37 24C40 21 44 20 48 20` + `" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="2"/>`
	frontSideShave = frontShaved + `<path d="M40 30C41 20 46 12 56 11C68 10.5 79 22 76.5 46C75.5 40 73.5 35 70.5 31.5C66 36.5 56 38 47 35C44 33.5 41.5 32 40 30Z" fill="$H"/>` +
		`<path d="M52 14.5C58 13.5 64 15 68 18` + hl
	frontBowl = `<path d="M22 47C19 24 33 9 50 9C67 9 81 24 78 47C77 43.5 76 40 75 37H25C24 40 23 43.5 22 47Z" fill="$H"/>` +
		`<path d="M35 15C40 12.5 45 12 50 12` + hl
	frontMessy = `<path d="M23.5 46C20.5 25 33 9.5 50 9.5C67 9.5 79.5 25 76.5 46C75 41 74 38 72 36L68 39L66 33L61 38L58 32L53 37L50 31L46 37L42 32L38 38L35 33L31 39L28 36C26 39 25 42 24 46Z" fill="$H"/>` +
		`<path d="M38 16.5C42 14.5 47 14 51 14.2` + hl
	frontPulled = `<path d="M25 46C22 26 34 12.5 50 12.5C66 12.5 78 26 75 46C74.5 40 73 36 70 32.5C63 30 56 29.5 50 29.5C44 29.5 37 30 30 32.5C27 36 25.5 40 25 46Z" fill="$H"/>` +
		`<path d="M50 29.5C49.5 24 49.5 18 50 13.5M38 17C42 15 45 14.6 47 14.6" fill="none" stroke="$h" stroke-width="1.3"/>`
	frontLongSides = `<path d="M21 88C15 60 17 12 50 10.5C83 12 85 60 79 88C76.5 80 75 66 74.5 52C74 43 72 37 68.5 33.5C61 34 52 32.5 46 28C41 34 33 38 27.5 42C26 50 25 70 21 88Z" fill="$H"/>` +
		`<path d="M36 16C40 13.8 45 13.2 49 13.4` + hl
	frontSideLock = `<path d="M21.5 54C18 26 32 10.5 50 10.5C68 10.5 83 24 80 56C81 66 80 78 84 90C76 88 74 80 73.5 70C73 58 74 46 70 38C64 39 53 37 44 31C38 30 33 33 29 36C26 41 24 47 21.5 54Z" fill="$H"/>` +
		`<path d="M40 15.5C45 13.5 52 13.5 57 15` + hl
	frontPixie = `<path d="M25 46C21 24 34 10.5 50 11C64 11.5 77 21 76 38C75.5 41 75 43 74 45C73.5 40 72 36 69.5 33C66 38 60 40 52 39.5C56 37 58 34 58.5 31C52 35 42 36 34 34C32 36.5 31 38.5 30.5 41C29 35.5 29 32 29.5 30C27.5 35 26 40 25 46Z" fill="$H"/>` +
		`<path d="M40 16C45 14 51 14 56 15.5` + hl
	frontUndercut = frontShaved + `<path d="M28 31C26 20 34 10 47 9C58 8 70 12 73 19C75 24 73 28 71 30.5C62 33.5 48 33.5 36 31.5C33 31 30 31 28 31Z" fill="$H"/>` +
		`<path d="M38 14.5C43 12.5 50 12 56 13` + hl
	frontSlick = `<path d="M25 44C22 27 33 12 50 12C67 12 78 27 75 44C74 39 72.5 36 70 33C64 29.5 58 28.5 50 28.5C42 28.5 36 29.5 30 33C27.5 36 26 39 25 44Z" fill="$H"/>` +
		`<path d="M34 29C40 22 50 17.5 62 19M38 22C44 17.5 52 16 60 16.5` + `" fill="none" stroke="$h" stroke-width="1.2"/>`
	frontWavy = `<path d="M23.5 47C20 26 33 11 50 11C67 11 80 26 76.5 47C75.5 41 74 37.5 71.5 35C68 37.5 64 37.5 62 35C59 38 54 38 52 35C49 38 44 38 42 35C39 37.5 34 37.5 32 34.5C29 38 25.5 42 23.5 47Z" fill="$H"/>` +
		`<path d="M38 16.5C42 14.5 47 14 51 14.2` + hl
	frontLocs = `<path d="M23 48C20 25 33 10.5 50 10.5C67 10.5 80 25 77 48C76 42 74.5 37 72 34V41A3 3 0 0 1 66 41V38A3 3 0 0 1 60 38V39.5A3 3 0 0 1 54 39.5V37A3 3 0 0 1 48 37V39.5A3 3 0 0 1 42 39.5V38A3 3 0 0 1 36 38V41A3 3 0 0 1 30 41V34C27 38 24.5 43 23 48Z" fill="$H"/>`
	braidSide = `<path d="M70 58C76 58 79 62 77.5 66C80 68 80.5 72 78 75C80.5 77 80.5 81.5 77.5 84C79 87 77 91 73 90.5C69 90 68 86 70 84C67 82 67 78 69.5 75.5C67 73 67 68.5 70 66.5C68 64 67.5 59.5 70 58Z" fill="$H"/><path d="M72 92L73 97" fill="none" stroke="$C" stroke-width="2.6"/>`
)

// braids mirrored onto both sides.
var braidsBoth = braidSide + mirror(braidSide)

var hairStyles = []hairStyle{
	{"", frontNeat},
	{backBob, frontBangs},
	{"", frontSwept},
	{backLong, frontCurtain},
	{"", frontSpiky},
	{"", frontQuiff},
	{"", frontCurly},
	{backAfro, frontCurly},
	{"", frontBuzz},
	{"", frontMohawk},
	{"", frontBald},
	{"", frontSideShave},
	{"", frontBowl},
	{"", frontMessy},
	{backBob, frontSwept},
	{backBob, frontCurtain},
	{backLong, frontLongSides},
	{backLong, frontBangs},
	{backLong, frontSwept},
	{backWavy, frontCurtain},
	{backCurlyLong, frontCurly},
	{backPony, frontPulled},
	{backHighPony, frontPulled},
	{backPigtails, frontBangs},
	{backSpaceBuns, frontCurtain},
	{backTopBun, frontPulled},
	{backManBun, frontNeat},
	{"", frontSwept + braidSide},
	{"", frontCurtain + braidsBoth},
	{backLong + backTopBun, frontCurtain},
	{backLocs, frontLocs},
	{"", frontPixie},
	{"", frontUndercut},
	{backLong, frontMessy},
	{backShoulder, frontBangs},
	{backCurlyBob, frontCurly},
	{backNape, frontSlick},
	{"", frontWavy},
	{backPuffs, frontPulled},
	{backLong, frontSideLock},
}

var hairBack, hairFront = compileHair(hairStyles)

func compileHair(styles []hairStyle) (back, front []tmpl) {
	for _, s := range styles {
		back = append(back, compile(s.back))
		front = append(front, compile(s.front))
	}
	return back, front
}
