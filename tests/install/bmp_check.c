// SPDX-License-Identifier: MIT
// Checks a screenshot of examples/window.c (tests/install/check.cmake): the file is a valid
// uncompressed 24-bit BMP of WIDTH x HEIGHT pixels, at least MIN_DRAWN pixels are not the
// background colour and at least MIN_SPRING are exactly the spring chains' colour; prints the
// counts. Usage: bmp_check FILE WIDTH HEIGHT BACKGROUND SPRING MIN_DRAWN MIN_SPRING, colours as
// RRGGBB in hexadecimal. Exit 0 when all hold, 1 otherwise (with the reason on stderr).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long read_le(const unsigned char *p, int bytes)
{
	unsigned long v = 0;
	for (int i = bytes - 1; i >= 0; i--) {
		v = v << 8 | p[i];
	}
	return v;
}

static int fail(const char *file, const char *why)
{
	fprintf(stderr, "bmp_check: %s: %s\n", file, why);
	return 1;
}

static int parse_number(const char *text, int base, long *out)
{
	char *end;
	*out = strtol(text, &end, base);
	return *text && !*end && *out >= 0;
}

int main(int argc, char **argv)
{
	long width, height, background, spring, min_drawn, min_spring;
	if (argc != 8 || !parse_number(argv[2], 10, &width) || !parse_number(argv[3], 10, &height) ||
	    !parse_number(argv[4], 16, &background) || !parse_number(argv[5], 16, &spring) ||
	    !parse_number(argv[6], 10, &min_drawn) || !parse_number(argv[7], 10, &min_spring)) {
		fprintf(stderr, "usage: bmp_check FILE WIDTH HEIGHT BACKGROUND SPRING MIN_DRAWN MIN_SPRING (colours RRGGBB)\n");
		return 2;
	}
	const char *file = argv[1];
	FILE *f = fopen(file, "rb");
	if (!f) {
		return fail(file, "cannot open");
	}
	fseek(f, 0, SEEK_END);
	const long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *data = size > 0 ? malloc((size_t)size) : NULL;
	const int complete = data && fread(data, 1, (size_t)size, f) == (size_t)size;
	fclose(f);
	if (!complete || size < 54 || memcmp(data, "BM", 2) != 0) {
		free(data);
		return fail(file, "not a BMP (no 'BM' header)");
	}
	const unsigned long offset = read_le(data + 10, 4), header = read_le(data + 14, 4);
	const long w = (long)read_le(data + 18, 4), h_raw = (long)(int)read_le(data + 22, 4);
	const unsigned long planes = read_le(data + 26, 2), bits = read_le(data + 28, 2), compression = read_le(data + 30, 4);
	const long h = h_raw < 0 ? -h_raw : h_raw, stride = (w * 3 + 3) / 4 * 4;
	const char *bad = NULL;
	if (read_le(data + 2, 4) != (unsigned long)size) {
		bad = "the header's file size is not the file's";
	} else if (header < 40 || planes != 1 || bits != 24 || compression != 0) {
		bad = "not an uncompressed 24-bit BMP with a BITMAPINFOHEADER";
	} else if (w != width || h != height) {
		fprintf(stderr, "bmp_check: %s: %ld x %ld pixels, not %ld x %ld\n", file, w, h, width, height);
		free(data);
		return 1;
	} else if (offset < 14 + header || offset + (unsigned long)(stride * h) > (unsigned long)size) {
		bad = "the pixels do not fit in the file";
	}
	if (bad) {
		free(data);
		return fail(file, bad);
	}
	long drawn = 0, spring_pixels = 0;
	for (long y = 0; y < h; y++) {
		const unsigned char *row = data + offset + y * stride;
		for (long x = 0; x < w; x++) {
			const long rgb = (long)row[3 * x + 2] << 16 | (long)row[3 * x + 1] << 8 | row[3 * x]; // stored B, G, R
			drawn += rgb != background;
			spring_pixels += rgb == spring;
		}
	}
	free(data);
	printf("%s: %ld x %ld, 24-bit; %ld pixels not the background %06lx, %ld of the spring colour %06lx\n", file, w, h, drawn,
	       background, spring_pixels, spring);
	if (drawn < min_drawn) {
		fprintf(stderr, "bmp_check: %s: only %ld pixels drawn (not the background), fewer than %ld\n", file, drawn, min_drawn);
		return 1;
	}
	if (spring_pixels < min_spring) {
		fprintf(stderr, "bmp_check: %s: only %ld pixels of the spring colour %06lx, fewer than %ld\n", file, spring_pixels,
		        spring, min_spring);
		return 1;
	}
	return 0;
}
