// SPDX-License-Identifier: MIT
// The sample character (examples/rigs/character.json) in an SDL2 window (SDL_Renderer): it walks
// for two seconds, idles for two, and so on, each bone drawn as a thick line, the spring chains
// (tail, hair, cape) in orange over the light grey skeleton; the view follows the hip along a
// scrolling ground line. Built only where CMake or pkg-config finds SDL2.
// Usage: window [--frames N] [--fixed-dt] [--screenshot FILE.bmp] [RIG.json]
//   --frames N         quit after N frames (default: run until the window is closed or Esc)
//   --fixed-dt         step 1/60 s a frame instead of the wall clock (deterministic frames)
//   --screenshot FILE  write the last frame drawn (frame N, or the one on closing) to FILE as
//                      a 24-bit BMP of the window's size (800 x 600)
// Nothing is allocated per frame: the pose and the vertices live in arrays sized once.
#define SDL_MAIN_HANDLED
#include <spring/io.h>

#include <SDL.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WINDOW_WIDTH = 800, WINDOW_HEIGHT = 600 };

static const SDL_Color background = {24, 28, 36, 255};  // dark blue-grey
static const SDL_Color skeleton = {200, 200, 200, 255}; // light grey
static const SDL_Color springs = {255, 140, 0, 255};    // orange: the spring chains
static const SDL_Color ground = {70, 76, 90, 255};

static const float bone_half_width = 3.0f;  // pixels
static const float chain_half_width = 2.5f; // pixels
static const float clip_seconds = 2.0f;     // walk, then idle, each this long
static const float ground_tick = 40.0f;     // world units between the ground's marks

// The view: world point (x, y) at the window's centre, `scale` pixels a world unit (y up).
typedef struct view {
	float x, y, scale;
} view;

static spring_xform2 world[SPRING_RIG_MAX_BONES];
static bool in_chain[SPRING_RIG_MAX_BONES];
static int chain_bones[SPRING_RIG_MAX_BONES];
static SDL_Vertex vertices[4 * SPRING_RIG_MAX_BONES];
static int indices[6 * SPRING_RIG_MAX_BONES];

static SDL_FPoint to_screen(const view *v, spring_vec2 p)
{
	return (SDL_FPoint){0.5f * WINDOW_WIDTH + (p.x - v->x) * v->scale, 0.5f * WINDOW_HEIGHT - (p.y - v->y) * v->scale};
}

static spring_vec2 bone_tip(const spring_rig *rig, int bone)
{
	return spring_xform2_apply(world[bone], spring_vec2_make(spring_rig_bone_length(rig, bone), 0.0f));
}

// A bone from a to b (pixels) as a quad `h` pixels either side, its ends pushed out by h.
static int add_segment(int count, SDL_FPoint a, SDL_FPoint b, float h, SDL_Color color)
{
	float dx = b.x - a.x, dy = b.y - a.y, len = SDL_sqrtf(dx * dx + dy * dy);
	if (len < 1e-3f) {
		dx = 1.0f, dy = 0.0f;
	} else {
		dx /= len, dy /= len;
	}
	const float ex = dx * h, ey = dy * h, nx = -dy * h, ny = dx * h;
	const SDL_FPoint corners[4] = {{a.x - ex + nx, a.y - ey + ny},
	                               {b.x + ex + nx, b.y + ey + ny},
	                               {b.x + ex - nx, b.y + ey - ny},
	                               {a.x - ex - nx, a.y - ey - ny}};
	const int first = 4 * count;
	for (int k = 0; k < 4; k++) {
		vertices[first + k] = (SDL_Vertex){corners[k], color, {0.0f, 0.0f}};
	}
	const int quad[6] = {0, 1, 2, 0, 2, 3};
	for (int k = 0; k < 6; k++) {
		indices[6 * count + k] = first + quad[k];
	}
	return count + 1;
}

static void draw(SDL_Renderer *renderer, const spring_rig *rig, const view *v)
{
	SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255);
	SDL_RenderClear(renderer);
	// The ground (y = 0) and its marks, which scroll as the view follows the hip.
	SDL_SetRenderDrawColor(renderer, ground.r, ground.g, ground.b, 255);
	const SDL_FPoint origin = to_screen(v, spring_vec2_make(v->x, 0.0f));
	SDL_RenderFillRectF(renderer, &(SDL_FRect){0.0f, origin.y, (float)WINDOW_WIDTH, 2.0f});
	const float half_span = 0.5f * WINDOW_WIDTH / v->scale;
	for (float x = SDL_floorf((v->x - half_span) / ground_tick) * ground_tick; x <= v->x + half_span; x += ground_tick) {
		const SDL_FPoint mark = to_screen(v, spring_vec2_make(x, 0.0f));
		SDL_RenderFillRectF(renderer, &(SDL_FRect){mark.x - 1.0f, origin.y, 2.0f, 8.0f});
	}
	// The skeleton first, the chains over it: one batch of quads.
	const int bones = spring_rig_bone_count(rig);
	int quads = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < bones; i++) {
			if (in_chain[i] != (pass == 1)) {
				continue;
			}
			quads = add_segment(quads, to_screen(v, world[i].position), to_screen(v, bone_tip(rig, i)),
			                    in_chain[i] ? chain_half_width : bone_half_width, in_chain[i] ? springs : skeleton);
		}
	}
	SDL_RenderGeometry(renderer, NULL, vertices, 4 * quads, indices, 6 * quads);
}

static void usage(FILE *to)
{
	fprintf(to, "usage: window [--frames N] [--fixed-dt] [--screenshot FILE.bmp] [RIG.json]\n"
	            "  --frames N         quit after N frames (default: when the window is closed or Esc)\n"
	            "  --fixed-dt         step 1/60 s a frame instead of the wall clock\n"
	            "  --screenshot FILE  write the last frame drawn to FILE (24-bit BMP, 800 x 600)\n"
	            "  RIG.json           the rig (default examples/rigs/character.json)\n");
}

int main(int argc, char **argv)
{
	const char *path = "examples/rigs/character.json", *screenshot = NULL;
	long frames = 0; // 0: until closed
	bool fixed_dt = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--fixed-dt") == 0) {
			fixed_dt = true;
		} else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
			char *end;
			errno = 0;
			frames = strtol(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || frames < 1 || frames > 100000000) {
				fprintf(stderr, "window: --frames takes a whole number from 1 to 100000000, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) {
			screenshot = argv[++i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "window: unknown option or missing value: %s\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			path = argv[i];
		}
	}

	spring_rig *rig = NULL;
	spring_file_error error;
	if (spring_rig_load_file(path, &rig, &error) != SPRING_OK) {
		fprintf(stderr, "window: %s\n", error.message);
		return 1;
	}
	const int walk = spring_rig_find_clip(rig, "walk"), idle = spring_rig_find_clip(rig, "idle");
	const int bones = spring_rig_bone_count(rig);
	if (walk < 0 || idle < 0 || bones < 1 || spring_rig_play(rig, walk, 0.0f) != SPRING_OK) {
		fprintf(stderr, "window: %s: no walk and idle clips, or no bones\n", path);
		spring_rig_destroy(rig);
		return 1;
	}
	for (int c = 0; c < spring_rig_chain_count(rig); c++) {
		const int n = spring_rig_chain_bones(rig, c, chain_bones, SPRING_RIG_MAX_BONES);
		for (int k = 0; k < n; k++) {
			in_chain[chain_bones[k]] = true;
		}
	}
	// Fit the setup pose (its bones and their tips) into 60 % of the window: room for the swing.
	int hip = 0;
	while (hip < bones && spring_rig_bone_parent(rig, hip) >= 0) {
		hip++;
	}
	if (hip == bones || spring_rig_get_world(rig, world, SPRING_RIG_MAX_BONES) != SPRING_OK) {
		fprintf(stderr, "window: %s: no root bone or no pose\n", path);
		spring_rig_destroy(rig);
		return 1;
	}
	float x0 = world[0].position.x, x1 = x0, y0 = world[0].position.y, y1 = y0;
	for (int i = 0; i < bones; i++) {
		const spring_vec2 ends[2] = {world[i].position, bone_tip(rig, i)};
		for (int k = 0; k < 2; k++) {
			x0 = SDL_min(x0, ends[k].x), x1 = SDL_max(x1, ends[k].x);
			y0 = SDL_min(y0, ends[k].y), y1 = SDL_max(y1, ends[k].y);
		}
	}
	const float fit = 0.6f * SDL_min(WINDOW_WIDTH / SDL_max(x1 - x0, 1.0f), WINDOW_HEIGHT / SDL_max(y1 - y0, 1.0f));
	const float hip_offset = 0.5f * (x0 + x1) - world[hip].position.x; // the view's x from the hip's
	view v = {0.5f * (x0 + x1), 0.5f * (y0 + y1), fit};

	SDL_SetMainReady();
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "window: no video device (%s): run it on a display, or headless under xvfb-run -a\n", SDL_GetError());
		spring_rig_destroy(rig);
		return 1;
	}
	SDL_Window *window = SDL_CreateWindow("libspring: the sample character", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
	                                      WINDOW_WIDTH, WINDOW_HEIGHT, 0);
	SDL_Renderer *renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC) : NULL;
	SDL_Surface *shot = screenshot && renderer
	                        ? SDL_CreateRGBSurfaceWithFormat(0, WINDOW_WIDTH, WINDOW_HEIGHT, 24, SDL_PIXELFORMAT_BGR24)
	                        : NULL;
	int status = 0;
	if (!renderer || (screenshot && !shot)) {
		fprintf(stderr, "window: no window or renderer: %s\n", SDL_GetError());
		status = 1;
	}

	const float step = 1.0f / 60.0f;
	Uint64 last = SDL_GetPerformanceCounter();
	float clip_time = 0.0f;
	bool walking = true;
	long frame = 0;
	while (status == 0) {
		bool quit = false;
		SDL_Event event;
		while (SDL_PollEvent(&event)) {
			if (event.type == SDL_QUIT || (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_ESCAPE)) {
				quit = true;
			}
		}
		if (!quit) {
			const Uint64 now = SDL_GetPerformanceCounter();
			const float dt = fixed_dt ? step : SDL_min((float)(now - last) / (float)SDL_GetPerformanceFrequency(), 0.25f);
			last = now;
			clip_time += dt;
			if (clip_time >= clip_seconds) {
				clip_time -= clip_seconds;
				walking = !walking;
				spring_rig_play(rig, walking ? walk : idle, 0.0f);
			}
			spring_result r = spring_rig_update(rig, dt);
			if (r == SPRING_OK) {
				r = spring_rig_apply_events(rig, NULL);
			}
			if (r == SPRING_OK) {
				r = spring_rig_get_world(rig, world, SPRING_RIG_MAX_BONES);
			}
			if (r != SPRING_OK) {
				fprintf(stderr, "window: frame %ld: %s\n", frame, spring_result_string(r));
				status = 1;
				break;
			}
			v.x = world[hip].position.x + hip_offset;
			frame++;
		}
		draw(renderer, rig, &v);
		const bool done = quit || (frames > 0 && frame >= frames);
		if (done && shot) {
			if (SDL_RenderReadPixels(renderer, NULL, SDL_PIXELFORMAT_BGR24, shot->pixels, shot->pitch) != 0 ||
			    SDL_SaveBMP(shot, screenshot) != 0) {
				fprintf(stderr, "window: cannot write %s: %s\n", screenshot, SDL_GetError());
				status = 1;
			}
		}
		SDL_RenderPresent(renderer);
		if (done) {
			break;
		}
	}
	if (status == 0) {
		int chained = 0;
		for (int i = 0; i < bones; i++) {
			chained += in_chain[i];
		}
		printf("%ld frames, %d bones, %d of them in spring chains\n", frame, bones, chained);
	}
	SDL_FreeSurface(shot);
	if (renderer) {
		SDL_DestroyRenderer(renderer);
	}
	if (window) {
		SDL_DestroyWindow(window);
	}
	SDL_Quit();
	spring_rig_destroy(rig);
	return status;
}
