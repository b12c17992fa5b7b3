// Copies node and credential icons next to the compiled files, where n8n looks for `file:` icons.
const { src, dest } = require('gulp');

function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'nodes/**/*.node.json'], { base: '.' }).pipe(
		dest('dist'),
	);
}

exports['build:icons'] = buildIcons;
