// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the SVG bar chart of the ratios, written by hand (no library): one horizontal bar
// per comparison, grouped as printed, a line at 1.0, each bar's ratio and figures beside it.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <utility>

#include "anycl/version.hpp"
#include "report.hpp"

namespace anycl::bench {
namespace {

std::string xml(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string num(double v) { return fixed(v, 1); }

// --- layout, in pixels ---
// Labels right-aligned left of the plot; the ratio and the figures in two columns right of it,
// so no text crosses a bar or the 1.0 line.
constexpr double width = 1100, label_right = 330, plot_left = 340, plot_width = 400;
constexpr double ratio_left = plot_left + plot_width + 16, figures_left = ratio_left + 52;
constexpr double row_height = 22, bar_height = 14, group_gap = 10, heading_height = 22;
constexpr double par_band = 0.05;  // within 5% of the reference: "on par"

// The bar colours: AnyCL better, on par, worse than the reference (by the unit's direction).
constexpr const char* better_fill = "#59a14f";
constexpr const char* par_fill = "#4e79a7";
constexpr const char* worse_fill = "#e15759";

const char* fill_of(const comparison& c) {
  const double r = c.ratio();
  const bool higher = higher_is_better(c.unit);
  if (r > 1.0 + par_band) return higher ? better_fill : worse_fill;
  if (r < 1.0 - par_band) return higher ? worse_fill : better_fill;
  return par_fill;
}

std::string group_heading(const std::string& group, unit_kind u) {
  std::string what = group == "launch"         ? "kernel-launch overhead, us per launch"
                     : group == "transfer"     ? "blocking transfers, GB/s"
                     : group == "array"        ? "array operations, GB/s"
                     : group == "array_sort"   ? "array sort, Mkeys/s"
                     : group == "blas"         ? "BLAS gemm, GFLOP/s"
                     : group == "first_result" ? "time to first result of a fresh process, ms"
                                               : group + ", " + unit_name(u);
  return what + (higher_is_better(u) ? " (higher is better)" : " (lower is better)");
}

/// The horizontal scale: 0 to a little past the largest ratio, at least 1.25 so the 1.0 line
/// stands clear, at most 4 (longer bars are cut and marked).
struct axis {
  double scale = 1.25;
  double tick = 0.25;
  explicit axis(const report& r) {
    double largest = 1.0;
    for (const comparison& c : r.comparisons)
      if (!c.failed && std::isfinite(c.ratio())) largest = std::max(largest, c.ratio());
    scale = std::min(4.0, std::max(1.25, std::ceil(largest * 1.05 / 0.25) * 0.25));
    tick = scale <= 2.0 ? 0.25 : 0.5;
  }
  double x_of(double ratio) const {
    return plot_left + std::min(ratio, scale) / scale * plot_width;
  }
};

/// The group a comparison's benchmark belongs to (the benchmark's name if it is not listed).
std::string group_of(const report& r, const comparison& c) {
  for (const benchmark_status& b : r.benchmarks)
    if (b.name == c.benchmark) return b.group;
  return c.benchmark;
}

/// A failed comparison's message, drawn over the 1.0 line on a background of its own.
std::string failed_row(const comparison& c, double y) {
  std::string why = one_line(c.error);
  if (why.size() > 100) why = why.substr(0, 97) + "...";
  return "  <rect class=\"failed-background\" x=\"" + num(plot_left) + "\" y=\"" + num(y + 2) +
         "\" width=\"" + num(width - plot_left - 10) + "\" height=\"" + num(row_height - 4) +
         "\" fill=\"#fdecec\"/>\n" + "  <text class=\"failed\" x=\"" + num(plot_left + 4) +
         "\" y=\"" + num(y + 15) + "\" fill=\"#c00000\" font-weight=\"bold\">FAILED: " + xml(why) +
         "</text>\n";
}

/// A passed comparison's bar, its ratio and its figures.
std::string bar_row(const comparison& c, double y, const axis& ax) {
  const double end = ax.x_of(c.ratio());
  const std::string u = unit_name(c.unit);
  std::string row = "  <rect class=\"bar\" x=\"" + num(plot_left) + "\" y=\"" +
                    num(y + (row_height - bar_height) / 2) + "\" width=\"" + num(end - plot_left) +
                    "\" height=\"" + num(bar_height) + "\" fill=\"" + fill_of(c) + "\"><title>" +
                    xml(contract_line(c)) + "</title></rect>\n";
  if (c.ratio() > ax.scale)  // cut at the scale's end: mark it
    row += "  <text x=\"" + num(end + 2) + "\" y=\"" + num(y + 15) + "\">&#9656;</text>\n";
  row += "  <text class=\"value\" x=\"" + num(ratio_left) + "\" y=\"" + num(y + 15) +
         "\" font-weight=\"bold\">" + fixed(c.ratio(), 3) + "</text>\n";
  row += "  <text class=\"figures\" x=\"" + num(figures_left) + "\" y=\"" + num(y + 15) +
         "\" fill=\"#444444\">anycl " + fixed(c.anycl, 2) + " " + xml(u) + ", " + xml(c.reference) +
         " " + fixed(c.reference_value, 2) + " " + xml(u) + "</text>\n";
  return row;
}

constexpr double plot_top = 104;

/// The rows of the chart, grouped as printed: the bars and labels, the failed rows (drawn last,
/// over the 1.0 line), and where the rows end.
struct chart_rows {
  std::string rows, failed_rows;
  double bottom = plot_top;
};

chart_rows layout_rows(const report& r, const axis& ax) {
  chart_rows out;
  double y = plot_top;
  std::string group;
  for (const comparison& c : r.comparisons) {
    const std::string g = group_of(r, c);
    if (g != group) {
      if (!group.empty()) y += group_gap;
      group = g;
      out.rows += "  <text class=\"group\" x=\"10\" y=\"" + num(y + 15) + "\">" +
                  xml(group_heading(g, c.unit)) + "</text>\n";
      y += heading_height;
    }
    out.rows += "  <text class=\"label\" x=\"" + num(label_right) + "\" y=\"" + num(y + 15) +
                "\" text-anchor=\"end\">" + xml(c.name) + "</text>\n";
    if (c.failed)
      out.failed_rows += failed_row(c, y);
    else
      out.rows += bar_row(c, y, ax);
    y += row_height;
  }
  out.bottom = y + 4;
  return out;
}

/// The document's start, the background, the title, how to read the chart, and the legend.
void write_heading(std::ostream& out, const report& r, double height) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" font-size=\"12\">\n"
      << "  <rect class=\"background\" x=\"0\" y=\"0\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" fill=\"#ffffff\"/>\n";
  out << "  <text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">anycl-bench: AnyCL / "
         "reference on "
      << xml(r.info.device) << "</text>\n"
      << "  <text x=\"10\" y=\"44\" fill=\"#444444\">ratio = AnyCL's figure / the reference's "
         "figure, medians of "
      << r.info.repetitions << " interleaved rounds" << (r.info.quick ? " (--quick)" : "")
      << "; AnyCL " << xml(anycl::version()) << "</text>\n"
      << "  <text x=\"10\" y=\"62\" fill=\"#444444\">us and ms: lower is better, so a bar left of "
         "1.0 means AnyCL is faster; GB/s and Mkeys/s: higher is better, right of 1.0 means "
         "faster</text>\n";
  double lx = 10;
  for (const auto& [fill, text] : {std::pair<const char*, const char*>{better_fill, "AnyCL better"},
                                   {par_fill, "within 5%"},
                                   {worse_fill, "AnyCL worse"}}) {
    out << "  <rect class=\"legend\" x=\"" << num(lx) << "\" y=\"74\" width=\"14\" height=\"12\" "
        << "fill=\"" << fill << "\"/>\n"
        << "  <text x=\"" << num(lx + 20) << "\" y=\"85\">" << text << "</text>\n";
    lx += 130;
  }
}

/// The vertical grid lines and their labels.
void write_grid(std::ostream& out, const axis& ax, double plot_bottom) {
  for (double t = 0; t <= ax.scale + 1e-9; t += ax.tick) {
    const double x = ax.x_of(t);
    out << "  <line class=\"grid\" x1=\"" << num(x) << "\" y1=\"" << num(plot_top) << "\" x2=\""
        << num(x) << "\" y2=\"" << num(plot_bottom) << "\" stroke=\"#dddddd\"/>\n"
        << "  <text class=\"tick\" x=\"" << num(x) << "\" y=\"" << num(plot_bottom + 16)
        << "\" text-anchor=\"middle\" fill=\"#444444\">" << fixed(t, 2) << "</text>\n";
  }
}

/// The 1.0 line and the column headings, the failed rows over them, the axis title, the end.
void write_ending(std::ostream& out, const axis& ax, const chart_rows& rows) {
  const double one = ax.x_of(1.0);
  out << "  <line class=\"one\" x1=\"" << num(one) << "\" y1=\"" << num(plot_top - 6) << "\" x2=\""
      << num(one) << "\" y2=\"" << num(rows.bottom) << "\" stroke=\"#000000\" "
      << "stroke-width=\"2\"/>\n"
      << "  <text x=\"" << num(one) << "\" y=\"" << num(plot_top - 9)
      << "\" text-anchor=\"middle\" font-weight=\"bold\">1.0</text>\n"
      << "  <text x=\"" << num(ratio_left) << "\" y=\"" << num(plot_top - 9)
      << "\" font-weight=\"bold\">ratio</text>\n"
      << "  <text x=\"" << num(figures_left) << "\" y=\"" << num(plot_top - 9)
      << "\" font-weight=\"bold\">figures (medians)</text>\n"
      << rows.failed_rows << "  <text x=\"" << num(plot_left + plot_width / 2) << "\" y=\""
      << num(rows.bottom + 34)
      << "\" text-anchor=\"middle\" fill=\"#444444\">ratio (AnyCL / reference)</text>\n"
      << "</svg>\n";
}

}  // namespace

void write_svg(std::ostream& out, const report& r) {
  // Rows first (their height decides the picture's), then the frame around them; the grid
  // under the rows, the 1.0 line on top of the bars.
  const axis ax(r);
  const chart_rows rows = layout_rows(r, ax);
  write_heading(out, r, rows.bottom + 48);
  write_grid(out, ax, rows.bottom);
  out << rows.rows;
  write_ending(out, ax, rows);
}

}  // namespace anycl::bench
