// SPDX-License-Identifier: MIT
// A small SVG plotting module for the CLI and the demo page: axes with ticks and labels, several
// series with a legend, horizontal and vertical reference lines, a log scale, XML-escaped text.
// No dependencies; everything is appended to an sbuf. Attributes are inline (no stylesheet), so a
// figure looks the same as a standalone file and inside an HTML page.
#ifndef SPRING_TOOLS_SVG_H
#define SPRING_TOOLS_SVG_H

#include "cli.h"

#define SVG_WIDTH 760 ///< px: the width of the time plots (curve, compare, the demo page)
#define SVG_MAX_SERIES 8
#define SVG_MAX_LINES 6

typedef struct svg_series {
	const char *label;   ///< legend text (NULL or empty: "series N", so that every series is named)
	const double *x, *y; ///< n points; non-finite points break the line
	int n;
	const char *color; ///< CSS colour; NULL -> the palette colour for its index
	int dashed;        ///< 1: dashed line
	double width;      ///< stroke width in px; 0 -> 2
	int markers;       ///< 1: a small dot at every point as well
} svg_series;

typedef struct svg_refline {
	double value;      ///< y for a horizontal line, x for a vertical one
	const char *label; ///< drawn beside the line (may be NULL)
	const char *color; ///< NULL -> grey
	int dashed;
} svg_refline;

typedef struct svg_plot {
	double left, top, width, height; ///< the whole panel, labels included, in px
	const char *title;
	const char *x_label, *y_label;
	int log_y;            ///< logarithmic y axis (non-positive values are not drawn)
	int fixed_x, fixed_y; ///< use x_min..x_max / y_min..y_max instead of the data's range
	double x_min, x_max, y_min, y_max;
	int series_count;
	svg_series series[SVG_MAX_SERIES];
	int hline_count, vline_count;
	svg_refline hlines[SVG_MAX_LINES], vlines[SVG_MAX_LINES];
} svg_plot;

/// A panel SVG_WIDTH wide at the top of its figure with time in seconds along x; the rest zero.
svg_plot svg_time_plot(double height, const char *title, const char *y_label);

/// Palette colour for series i.
const char *svg_color(int i);

/// Opens an <svg> element of width x height px with a <title> (and, when `standalone`, the XML
/// declaration first). `description` (optional) goes into <desc>.
void svg_begin(sbuf *b, double width, double height, const char *title, const char *description, int standalone);
void svg_end(sbuf *b);

/// Draws one plot panel with a legend naming every series. Each series becomes one
/// <path class="series" data-label="...">.
void svg_plot_draw(sbuf *b, const svg_plot *p);

/// Text at (x, y); anchor "start", "middle" or "end"; size in px (0 -> 12); weight "bold" or NULL.
void svg_text(sbuf *b, double x, double y, const char *anchor, double size, const char *weight, const char *fill,
              const char *text);

/// A "nice" tick step (1, 2 or 5 times a power of ten) for about `target` ticks over `range`.
double svg_nice_step(double range, int target);

/// A fresh id number for clip paths and the like, unique within the process.
int svg_next_id(void);

#endif
