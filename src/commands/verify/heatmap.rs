//! `--svg`: the atlas as a heat map. Holes per row run down, seeds per hole across; each cell
//! is coloured by the value as a share of all seeds (the first player's wins blue, the second
//! player's red, draws neutral) and shows the value; boards with proven bounds only are
//! hatched grey and show their bounds; the standard 7 x 7 board is outlined.

use std::ops::RangeInclusive;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::board::Row;
use crate::cli_error::CliError;

const CELL_W: i32 = 64;
const CELL_H: i32 = 48;
const LEFT: i32 = 112;
const TOP: i32 = 132;
const RIGHT: i32 = 24;
const LEGEND_H: i32 = 130;
/// Room for the title and the legend on an atlas of few columns.
const MIN_WIDTH: i32 = 1000;
const LEGEND_W: i32 = 8 * CELL_W;

const FIRST: (f64, f64, f64) = (33.0, 102.0, 172.0);
const SECOND: (f64, f64, f64) = (178.0, 24.0, 43.0);
const NEUTRAL: (f64, f64, f64) = (247.0, 247.0, 247.0);
const BOUNDS_FILL: RGBColor = RGBColor(224, 224, 224);
const HATCH: RGBColor = RGBColor(170, 170, 170);
const INK: RGBColor = RGBColor(30, 30, 30);

/// The colour of a value that is `share` (-1 to 1) of all seeds: neutral at 0, the first
/// player's hue towards 1, the second player's towards -1.
fn colour(share: f64) -> RGBColor {
    let (end, t) = if share >= 0.0 { (FIRST, share.min(1.0)) } else { (SECOND, (-share).min(1.0)) };
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    RGBColor(mix(NEUTRAL.0, end.0), mix(NEUTRAL.1, end.1), mix(NEUTRAL.2, end.2))
}

/// Text that reads on a cell of `share`: white on the darker colours.
fn ink_on(share: f64) -> RGBColor {
    if share.abs() > 0.55 {
        WHITE
    } else {
        INK
    }
}

/// Writes the heat map of `rows` to `path` as SVG; `caption` (e.g. the command) is printed
/// under the title.
///
/// # Errors
/// [`CliError::Failure`] if the file cannot be written.
pub fn write_svg(path: &Path, rows: &[Row], caption: &str) -> Result<(), CliError> {
    let failure = |e: String| CliError::Failure(format!("cannot write the picture {}: {e}", path.display()));
    let span = |of: fn(&Row) -> i32| {
        let (low, high) = (rows.iter().map(of).min().unwrap_or(1), rows.iter().map(of).max().unwrap_or(1));
        low..=high
    };
    let grid = Grid { holes: span(|r| r.board.holes as i32), seeds: span(|r| r.board.seeds as i32) };
    let width = (LEFT + grid.columns() * CELL_W + RIGHT).max(MIN_WIDTH);
    let height = TOP + grid.rows() * CELL_H + LEGEND_H;
    let root = SVGBackend::new(path, (width as u32, height as u32)).into_drawing_area();
    draw(&root, rows, caption, &grid).map_err(|e| failure(e.to_string()))?;
    root.present().map_err(|e| failure(e.to_string()))
}

/// The boards drawn: every combination of the holes and seeds of the rows, one cell each.
struct Grid {
    holes: RangeInclusive<i32>,
    seeds: RangeInclusive<i32>,
}

impl Grid {
    fn rows(&self) -> i32 {
        self.holes.end() - self.holes.start() + 1
    }

    fn columns(&self) -> i32 {
        self.seeds.end() - self.seeds.start() + 1
    }

    /// The top-left corner of the cell of board `holes` x `seeds`.
    fn corner(&self, holes: i32, seeds: i32) -> (i32, i32) {
        (LEFT + (seeds - self.seeds.start()) * CELL_W, TOP + (holes - self.holes.start()) * CELL_H)
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<<SVGBackend<'static> as DrawingBackend>::ErrorType>>;

fn text(area: &Area, s: &str, at: (i32, i32), size: f64, colour: RGBColor, anchor: (HPos, VPos)) -> DrawResult {
    let style = ("sans-serif", size).into_font().color(&colour).pos(Pos::new(anchor.0, anchor.1));
    area.draw(&Text::new(s.to_string(), at, style))
}

fn bold(area: &Area, s: &str, at: (i32, i32), size: f64, colour: RGBColor, anchor: (HPos, VPos)) -> DrawResult {
    let style = ("sans-serif", size, FontStyle::Bold).into_font().color(&colour).pos(Pos::new(anchor.0, anchor.1));
    area.draw(&Text::new(s.to_string(), at, style))
}

fn draw(area: &Area, rows: &[Row], caption: &str, grid: &Grid) -> DrawResult {
    area.fill(&WHITE)?;
    let exact = rows.iter().filter(|r| r.exact()).count();
    let centre = (HPos::Center, VPos::Center);
    bold(area, "Dakon with perfect play: the first player's result on each board", (LEFT, 24), 28.0, INK, (HPos::Left, VPos::Center))?;
    text(
        area,
        &format!("Value = final store difference, first player − second, with perfect play; colour = value as a share of all seeds. {exact} of {} boards exact.", rows.len()),
        (LEFT, 50),
        15.0,
        INK,
        (HPos::Left, VPos::Center),
    )?;
    text(area, caption, (LEFT, 70), 13.0, RGBColor(90, 90, 90), (HPos::Left, VPos::Center))?;
    text(area, "seeds per hole at the start →", (LEFT, TOP - 32), 15.0, INK, (HPos::Left, VPos::Center))?;
    text(area, "holes per row ↓", (8, TOP - 12), 15.0, INK, (HPos::Left, VPos::Center))?;
    for seeds in grid.seeds.clone() {
        let (x, _) = grid.corner(*grid.holes.start(), seeds);
        bold(area, &seeds.to_string(), (x + CELL_W / 2, TOP - 12), 16.0, INK, centre)?;
    }
    for holes in grid.holes.clone() {
        let (_, y) = grid.corner(holes, *grid.seeds.start());
        bold(area, &holes.to_string(), (LEFT - 16, y + CELL_H / 2), 16.0, INK, (HPos::Right, VPos::Center))?;
        for seeds in grid.seeds.clone() {
            let row = rows.iter().find(|r| r.board.holes as i32 == holes && r.board.seeds as i32 == seeds);
            cell(area, row, grid.corner(holes, seeds))?;
        }
    }
    if grid.holes.contains(&7) && grid.seeds.contains(&7) {
        let (x, y) = grid.corner(7, 7);
        area.draw(&Rectangle::new([(x - 1, y - 1), (x + CELL_W + 1, y + CELL_H + 1)], BLACK.stroke_width(5)))?;
    }
    legend(area, TOP + grid.rows() * CELL_H + 36)
}

/// One board's cell with its top-left corner at `(x, y)`.
fn cell(area: &Area, row: Option<&Row>, (x, y): (i32, i32)) -> DrawResult {
    let (x1, y1) = (x + CELL_W, y + CELL_H);
    let middle = (x + CELL_W / 2, y + CELL_H / 2);
    let centre = (HPos::Center, VPos::Center);
    match row {
        None => {
            area.draw(&Rectangle::new([(x, y), (x1, y1)], WHITE.filled()))?;
        }
        Some(row) if row.exact() => {
            let share = row.lower as f64 / row.board.total() as f64;
            area.draw(&Rectangle::new([(x, y), (x1, y1)], colour(share).filled()))?;
            let value = if row.lower == 0 { "0".to_string() } else { format!("{:+}", row.lower) };
            bold(area, &value, (middle.0, middle.1 - 6), 21.0, ink_on(share), centre)?;
            text(area, &format!("of {}", row.board.total()), (middle.0, middle.1 + 14), 12.0, ink_on(share), centre)?;
        }
        Some(row) => {
            area.draw(&Rectangle::new([(x, y), (x1, y1)], BOUNDS_FILL.filled()))?;
            hatch_box(area, (x, y), (CELL_W, CELL_H))?;
            text(area, &format!("{:+}..{:+}", row.lower, row.upper), (middle.0, middle.1 - 7), 13.0, INK, centre)?;
            text(area, "bounds", (middle.0, middle.1 + 11), 12.0, INK, centre)?;
        }
    }
    area.draw(&Rectangle::new([(x, y), (x1, y1)], WHITE.stroke_width(1)))
}

/// Diagonal hatching across the box of size `(w, h)` at `(x, y)`: proven bounds only.
fn hatch_box(area: &Area, (x, y): (i32, i32), (w, h): (i32, i32)) -> DrawResult {
    for offset in (-h..w).step_by(10) {
        // The line from (x + offset, y + h) up to (x + offset + h, y), clipped to the box.
        let (mut x0, mut y0, mut x1, mut y1) = (x + offset, y + h, x + offset + h, y);
        if x0 < x {
            y0 -= x - x0;
            x0 = x;
        }
        if x1 > x + w {
            y1 += x1 - (x + w);
            x1 = x + w;
        }
        area.draw(&PathElement::new(vec![(x0, y0), (x1, y1)], HATCH.stroke_width(1)))?;
    }
    Ok(())
}

/// The colour scale and the other marks, from `y` down.
fn legend(area: &Area, y: i32) -> DrawResult {
    let steps = 64;
    let step_w = LEGEND_W as f64 / steps as f64;
    for i in 0..steps {
        let share = -1.0 + 2.0 * (i as f64 + 0.5) / steps as f64;
        let x0 = LEFT + (i as f64 * step_w).round() as i32;
        let x1 = LEFT + ((i + 1) as f64 * step_w).round() as i32;
        area.draw(&Rectangle::new([(x0, y), (x1, y + 18)], colour(share).filled()))?;
    }
    area.draw(&Rectangle::new([(LEFT, y), (LEFT + LEGEND_W, y + 18)], INK.stroke_width(1)))?;
    text(area, "value as a share of all seeds", (LEFT, y - 10), 14.0, INK, (HPos::Left, VPos::Center))?;
    for (share, label) in [(-1.0, "−100%"), (-0.5, "−50%"), (0.0, "0: draw"), (0.5, "+50%"), (1.0, "+100%")] {
        let x = LEFT + ((share + 1.0) / 2.0 * LEGEND_W as f64).round() as i32;
        area.draw(&PathElement::new(vec![(x, y + 18), (x, y + 24)], INK.stroke_width(1)))?;
        text(area, label, (x, y + 33), 13.0, INK, (HPos::Center, VPos::Center))?;
    }
    let below = y + 50;
    text(area, "← the second player wins (takes all at −100%)", (LEFT, below), 13.0, INK, (HPos::Left, VPos::Center))?;
    text(area, "the first player wins →", (LEFT + LEGEND_W, below), 13.0, INK, (HPos::Right, VPos::Center))?;
    let marks_y = y + 70;
    area.draw(&Rectangle::new([(LEFT, marks_y), (LEFT + 28, marks_y + 20)], BOUNDS_FILL.filled()))?;
    hatch_box(area, (LEFT, marks_y), (28, 20))?;
    text(area, "bounds only (search budget ran out): lower..upper", (LEFT + 36, marks_y + 10), 13.0, INK, (HPos::Left, VPos::Center))?;
    let x = LEFT + LEGEND_W - 170;
    area.draw(&Rectangle::new([(x, marks_y), (x + 28, marks_y + 20)], BLACK.stroke_width(3)))?;
    text(area, "the standard board, 7 × 7", (x + 36, marks_y + 10), 13.0, INK, (HPos::Left, VPos::Center))
}

#[cfg(test)]
mod tests {
    use super::colour;
    use plotters::style::RGBColor;

    #[test]
    fn draws_are_neutral_and_sweeps_take_the_full_hues() {
        assert_eq!(colour(0.0), RGBColor(247, 247, 247));
        assert_eq!(colour(1.0), RGBColor(33, 102, 172));
        assert_eq!(colour(-1.0), RGBColor(178, 24, 43));
        assert_eq!(colour(2.0), colour(1.0));
    }
}
