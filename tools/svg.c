// SPDX-License-Identifier: MIT
// SVG plots: see svg.h.
#include "svg.h"

#include <math.h>
#include <string.h>

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

const char *svg_color(int i)
{
	return palette[(i < 0 ? 0 : i) % (int)(sizeof palette / sizeof palette[0])];
}

static int next_id;

int svg_next_id(void)
{
	return ++next_id;
}

void svg_begin(sbuf *b, double width, double height, const char *title, const char *description, int standalone)
{
	if (standalone) {
		sb_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	}
	sb_printf(b,
	          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	          "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
	          width, height, width, height);
	sb_puts(b, "<title>");
	sb_xml(b, title ? title : "");
	sb_puts(b, "</title>\n");
	if (description) {
		sb_puts(b, "<desc>");
		sb_xml(b, description);
		sb_puts(b, "</desc>\n");
	}
	sb_printf(b, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", width, height);
}

svg_plot svg_time_plot(double height, const char *title, const char *y_label)
{
	svg_plot p = {.width = SVG_WIDTH, .height = height, .title = title, .x_label = "time (s)", .y_label = y_label};
	return p;
}

void svg_end(sbuf *b)
{
	sb_puts(b, "</svg>\n");
}

void svg_text(sbuf *b, double x, double y, const char *anchor, double size, const char *weight, const char *fill,
              const char *text)
{
	sb_printf(b, "<text x=\"%.2f\" y=\"%.2f\"", x, y);
	if (anchor && strcmp(anchor, "start") != 0) {
		sb_printf(b, " text-anchor=\"%s\"", anchor);
	}
	if (size > 0.0 && size != 12.0) {
		sb_printf(b, " font-size=\"%g\"", size);
	}
	if (weight) {
		sb_printf(b, " font-weight=\"%s\"", weight);
	}
	if (fill) {
		sb_printf(b, " fill=\"%s\"", fill);
	}
	sb_putc(b, '>');
	sb_xml(b, text ? text : "");
	sb_puts(b, "</text>\n");
}

double svg_nice_step(double range, int target)
{
	if (!(range > 0.0) || !isfinite(range)) {
		return 1.0;
	}
	double raw = range / (target > 0 ? target : 5);
	double mag = pow(10.0, floor(log10(raw)));
	double f = raw / mag;
	double nice = f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0;
	return nice * mag;
}

static void tick_label(char *buf, double v, double step)
{
	if (fabs(v) < step * 1e-9) {
		v = 0.0;
	}
	double a = fabs(v);
	if (a != 0.0 && (a >= 1e6 || a < 1e-4)) {
		snprintf(buf, 40, "%.3g", v);
		return;
	}
	int decimals = step >= 1.0 ? 0 : (int)ceil(-log10(step) - 1e-9);
	if (decimals > 8) {
		decimals = 8;
	}
	snprintf(buf, 40, "%.*f", decimals, v);
	if (strcmp(buf, "-0") == 0 || (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))) {
		memmove(buf, buf + 1, strlen(buf));
	}
}

typedef struct mapping {
	double x0, x1, y0, y1;     // data range
	double px0, px1, py0, py1; // pixel range (py0 is the bottom)
	int log_y;
} mapping;

static double map_x(const mapping *m, double x)
{
	double t = (x - m->x0) / (m->x1 - m->x0);
	double px = m->px0 + t * (m->px1 - m->px0);
	return fmax(-1e6, fmin(1e6, px));
}

static double map_y(const mapping *m, double y)
{
	double t;
	if (m->log_y) {
		t = (log10(y) - log10(m->y0)) / (log10(m->y1) - log10(m->y0));
	} else {
		t = (y - m->y0) / (m->y1 - m->y0);
	}
	double py = m->py0 + t * (m->py1 - m->py0);
	return fmax(-1e6, fmin(1e6, py));
}

// The legend text of series s: its label, or "series N" when it has none (every series is named).
static const char *series_label(const svg_plot *p, int s, char buf[32])
{
	const char *label = p->series[s].label;
	if (label && label[0]) {
		return label;
	}
	snprintf(buf, 32, "series %d", s + 1);
	return buf;
}

// Width of a legend entry: swatch, gap, text (about 6.6 px per character at 12 px), spacing.
static double legend_item_width(const char *label)
{
	return 23.0 + 6.6 * (double)strlen(label) + 18.0;
}

static int usable_y(const svg_plot *p, double y)
{
	return isfinite(y) && (!p->log_y || y > 0.0);
}

void svg_plot_draw(sbuf *b, const svg_plot *p)
{
	// Data range.
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	for (int s = 0; s < p->series_count; s++) {
		const svg_series *se = &p->series[s];
		for (int i = 0; i < se->n; i++) {
			if (isfinite(se->x[i]) && usable_y(p, se->y[i])) {
				x0 = fmin(x0, se->x[i]);
				x1 = fmax(x1, se->x[i]);
				y0 = fmin(y0, se->y[i]);
				y1 = fmax(y1, se->y[i]);
			}
		}
	}
	for (int i = 0; i < p->hline_count; i++) {
		if (usable_y(p, p->hlines[i].value)) {
			y0 = fmin(y0, p->hlines[i].value);
			y1 = fmax(y1, p->hlines[i].value);
		}
	}
	if (!(x0 <= x1)) {
		x0 = 0.0;
		x1 = 1.0;
	}
	if (!(y0 <= y1)) {
		y0 = p->log_y ? 1.0 : 0.0;
		y1 = p->log_y ? 10.0 : 1.0;
	}
	if (p->fixed_x) {
		x0 = p->x_min;
		x1 = p->x_max;
	}
	if (x1 <= x0) {
		x1 = x0 + 1.0;
	}
	double ystep = 1.0;
	if (p->fixed_y) {
		y0 = p->y_min;
		y1 = p->y_max;
	} else if (p->log_y) {
		y0 = pow(10.0, floor(log10(y0)));
		y1 = pow(10.0, ceil(log10(y1)));
		if (y1 <= y0) {
			y1 = y0 * 10.0;
		}
	} else {
		if (y1 - y0 < 1e-12 * fmax(1.0, fabs(y0))) {
			double pad = fabs(y0) > 0.0 ? fabs(y0) * 0.1 : 1.0;
			y0 -= pad;
			y1 += pad;
		}
		double pad = 0.05 * (y1 - y0);
		// Padding never crosses zero: a speed or a distance keeps 0 as its floor.
		y0 = y0 >= 0.0 && y0 - pad < 0.0 ? 0.0 : y0 - pad;
		y1 = y1 <= 0.0 && y1 + pad > 0.0 ? 0.0 : y1 + pad;
		ystep = svg_nice_step(y1 - y0, 5);
		y0 = floor(y0 / ystep) * ystep;
		y1 = ceil(y1 / ystep) * ystep;
	}
	if (!p->log_y && p->fixed_y) {
		ystep = svg_nice_step(y1 - y0, 5);
	}
	if (p->log_y && y0 <= 0.0) {
		y0 = 1e-6;
	}
	if (y1 <= y0) {
		y1 = y0 + 1.0;
	}
	// Legend rows: items flow left to right under the title and wrap at the plot's width.
	double legend_x0 = p->left + 62.0, legend_x1 = p->left + p->width - 14.0;
	int legend_rows = 0;
	{
		double lx = legend_x0;
		for (int s = 0; s < p->series_count; s++) {
			char unnamed[32];
			double w = legend_item_width(series_label(p, s, unnamed));
			if (legend_rows == 0 || (lx + w > legend_x1 && lx > legend_x0)) {
				legend_rows++;
				lx = legend_x0;
			}
			lx += w;
		}
	}
	mapping m;
	m.x0 = x0;
	m.x1 = x1;
	m.y0 = y0;
	m.y1 = y1;
	m.log_y = p->log_y;
	double top = p->top + (p->title ? 22.0 : 6.0) + 18.0 * legend_rows + (legend_rows ? 2.0 : 0.0);
	m.px0 = p->left + 62.0;
	m.px1 = p->left + p->width - 14.0;
	m.py1 = top + 6.0;
	m.py0 = p->top + p->height - 40.0;
	if (m.px1 < m.px0 + 10.0) {
		m.px1 = m.px0 + 10.0;
	}
	if (m.py0 < m.py1 + 10.0) {
		m.py0 = m.py1 + 10.0;
	}
	sb_puts(b, "<g class=\"plot\">\n");
	if (p->title) {
		svg_text(b, p->left + 8.0, p->top + 16.0, "start", 14.0, "bold", "#222222", p->title);
	}
	// Legend.
	if (legend_rows) {
		double lx = legend_x0, ly = p->top + (p->title ? 22.0 : 6.0) + 12.0;
		int first = 1;
		for (int s = 0; s < p->series_count; s++) {
			const svg_series *se = &p->series[s];
			char unnamed[32];
			const char *label = series_label(p, s, unnamed);
			double w = legend_item_width(label);
			if (!first && lx + w > legend_x1 && lx > legend_x0) {
				lx = legend_x0;
				ly += 18.0;
			}
			first = 0;
			const char *color = se->color ? se->color : svg_color(s);
			sb_printf(
				b,
				"<line class=\"legend-swatch\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"3\"%s/>\n",
				lx, ly - 4.0, lx + 18.0, ly - 4.0, color, se->dashed ? " stroke-dasharray=\"6 4\"" : "");
			sb_puts(b, "<text class=\"legend\" ");
			sb_printf(b, "x=\"%.2f\" y=\"%.2f\" fill=\"#222222\">", lx + 23.0, ly);
			sb_xml(b, label);
			sb_puts(b, "</text>\n");
			lx += w;
		}
	}
	// Frame, grid and ticks.
	sb_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#fbfbfb\" stroke=\"#999999\"/>\n", m.px0,
	          m.py1, m.px1 - m.px0, m.py0 - m.py1);
	double xstep = svg_nice_step(x1 - x0, (int)fmax(2.0, (m.px1 - m.px0) / 80.0));
	char lab[48];
	for (double v = ceil(x0 / xstep - 1e-9) * xstep; v <= x1 + xstep * 1e-9; v += xstep) {
		double px = map_x(&m, v);
		sb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e4e4e4\"/>\n", px, m.py1, px, m.py0);
		sb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#666666\"/>\n", px, m.py0, px, m.py0 + 4.0);
		tick_label(lab, v, xstep);
		svg_text(b, px, m.py0 + 16.0, "middle", 11.0, NULL, "#444444", lab);
	}
	if (p->log_y) {
		for (double e = floor(log10(y0)); e <= ceil(log10(y1)) + 1e-9; e += 1.0) {
			double v = pow(10.0, e);
			if (v < y0 * (1 - 1e-9) || v > y1 * (1 + 1e-9)) {
				continue;
			}
			double py = map_y(&m, v);
			sb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e4e4e4\"/>\n", m.px0, py, m.px1, py);
			if (e >= -3.0 && e <= 5.0) {
				snprintf(lab, sizeof lab, "%g", v);
			} else {
				snprintf(lab, sizeof lab, "1e%d", (int)e);
			}
			svg_text(b, m.px0 - 6.0, py + 4.0, "end", 11.0, NULL, "#444444", lab);
		}
	} else {
		for (double v = ceil(y0 / ystep - 1e-9) * ystep; v <= y1 + ystep * 1e-9; v += ystep) {
			double py = map_y(&m, v);
			sb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e4e4e4\"/>\n", m.px0, py, m.px1, py);
			tick_label(lab, v, ystep);
			svg_text(b, m.px0 - 6.0, py + 4.0, "end", 11.0, NULL, "#444444", lab);
		}
	}
	if (p->x_label) {
		svg_text(b, (m.px0 + m.px1) / 2.0, p->top + p->height - 8.0, "middle", 12.0, NULL, "#222222", p->x_label);
	}
	if (p->y_label) {
		double cx = p->left + 14.0, cy = (m.py0 + m.py1) / 2.0;
		sb_printf(b, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"#222222\" transform=\"rotate(-90 %.2f %.2f)\">",
		          cx, cy, cx, cy);
		sb_xml(b, p->y_label);
		sb_puts(b, "</text>\n");
	}
	int clip = svg_next_id();
	sb_printf(b, "<clipPath id=\"plotclip%d\"><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/></clipPath>\n", clip,
	          m.px0, m.py1, m.px1 - m.px0, m.py0 - m.py1);
	sb_printf(b, "<g clip-path=\"url(#plotclip%d)\">\n", clip);
	// Reference lines under the data.
	for (int i = 0; i < p->hline_count; i++) {
		const svg_refline *r = &p->hlines[i];
		if (!usable_y(p, r->value)) {
			continue;
		}
		double py = map_y(&m, r->value);
		sb_printf(
			b, "<line class=\"hline\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.5\"%s/>\n",
			m.px0, py, m.px1, py, r->color ? r->color : "#888888", r->dashed ? " stroke-dasharray=\"5 4\"" : "");
	}
	for (int i = 0; i < p->vline_count; i++) {
		const svg_refline *r = &p->vlines[i];
		if (!isfinite(r->value)) {
			continue;
		}
		double px = map_x(&m, r->value);
		sb_printf(
			b, "<line class=\"vline\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.5\"%s/>\n",
			px, m.py1, px, m.py0, r->color ? r->color : "#888888", r->dashed ? " stroke-dasharray=\"5 4\"" : "");
	}
	// Series.
	for (int s = 0; s < p->series_count; s++) {
		const svg_series *se = &p->series[s];
		const char *color = se->color ? se->color : svg_color(s);
		char unnamed[32];
		sb_puts(b, "<path class=\"series\" data-label=\"");
		sb_xml(b, series_label(p, s, unnamed));
		sb_printf(b, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%g\" stroke-linejoin=\"round\"%s d=\"", color,
		          se->width > 0.0 ? se->width : 2.0, se->dashed ? " stroke-dasharray=\"7 5\"" : "");
		int pen = 0, any = 0;
		for (int i = 0; i < se->n; i++) {
			if (!isfinite(se->x[i]) || !usable_y(p, se->y[i])) {
				pen = 0;
				continue;
			}
			sb_printf(b, "%s%c%.2f %.2f", any ? " " : "", pen ? 'L' : 'M', map_x(&m, se->x[i]), map_y(&m, se->y[i]));
			pen = any = 1;
		}
		if (!any) {
			sb_puts(b, "M0 0");
		}
		sb_puts(b, "\"/>\n");
		if (se->markers) {
			for (int i = 0; i < se->n; i++) {
				if (isfinite(se->x[i]) && usable_y(p, se->y[i])) {
					sb_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.2\" fill=\"%s\"/>\n", map_x(&m, se->x[i]),
					          map_y(&m, se->y[i]), color);
				}
			}
		}
	}
	sb_puts(b, "</g>\n");
	// Reference line labels on top.
	for (int i = 0; i < p->hline_count; i++) {
		const svg_refline *r = &p->hlines[i];
		if (r->label && usable_y(p, r->value) && r->value >= y0 && r->value <= y1) {
			svg_text(b, m.px1 - 4.0, map_y(&m, r->value) - 4.0, "end", 11.0, NULL, r->color ? r->color : "#666666", r->label);
		}
	}
	for (int i = 0; i < p->vline_count; i++) {
		const svg_refline *r = &p->vlines[i];
		if (r->label && isfinite(r->value) && r->value >= x0 && r->value <= x1) {
			double px = map_x(&m, r->value);
			int right = px > (m.px0 + m.px1) / 2.0;
			svg_text(b, right ? px - 4.0 : px + 4.0, m.py1 + 14.0 + 13.0 * i, right ? "end" : "start", 11.0, NULL,
			         r->color ? r->color : "#666666", r->label);
		}
	}
	sb_puts(b, "</g>\n");
}
