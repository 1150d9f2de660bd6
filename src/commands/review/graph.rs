//! `--svg`: the value graph of a reviewed game. The value for player 0 after every move (a
//! band where only bounds are proven), above zero player 0 wins; each marked move is a dot
//! coloured by its mark and labelled with its hole.

use std::path::Path;

use plotters::prelude::*;

use crate::cli_error::CliError;
use crate::game_record::GameRecord;
use crate::game_review::{Mark, Review};

const LINE: RGBColor = RGBColor(33, 102, 172);
const BAND: RGBColor = RGBColor(190, 210, 235);
const INK: RGBColor = RGBColor(30, 30, 30);

/// The colour of a mark's dot.
fn mark_colour(mark: Mark) -> RGBColor {
    match mark {
        Mark::Inaccuracy => RGBColor(191, 128, 0),
        Mark::Mistake => RGBColor(214, 96, 24),
        Mark::Blunder => RGBColor(178, 24, 43),
    }
}

/// Writes the value graph of `reviewed` (the review of `record`) to `path` as SVG.
///
/// # Errors
/// [`CliError::Failure`] if the file cannot be written.
pub fn write_svg(path: &Path, record: &GameRecord, reviewed: &Review) -> Result<(), CliError> {
    let failure = |e: String| CliError::Failure(format!("cannot write the graph {}: {e}", path.display()));
    let values = &reviewed.for_player_0;
    let top = values.iter().map(|v| v.upper.abs().max(v.lower.abs())).max().unwrap_or(1).max(1);
    let last = values.len().saturating_sub(1).max(1) as i32;
    let root = SVGBackend::new(path, (960, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failure(e.to_string()))?;
    let title = format!("{} on {} holes: the value for player 0 after every move", record.rules, record.start.holes());
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20).into_font().color(&INK))
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0..last, -top..top)
        .map_err(|e| failure(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc("move")
        .y_desc("seeds (+: player 0 ahead)")
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| failure(e.to_string()))?;
    chart.draw_series([PathElement::new(vec![(0, 0), (last, 0)], INK.mix(0.4))]).map_err(|e| failure(e.to_string()))?;
    let band = values.iter().enumerate().filter(|(_, v)| v.lower != v.upper);
    chart
        .draw_series(band.map(|(i, v)| Rectangle::new([(i as i32, v.lower), (i as i32, v.upper)], BAND.stroke_width(6))))
        .map_err(|e| failure(e.to_string()))?;
    let middle = |i: usize| (i as i32, (values[i].lower + values[i].upper) / 2);
    chart
        .draw_series([PathElement::new((0..values.len()).map(middle).collect::<Vec<_>>(), LINE.stroke_width(2))])
        .map_err(|e| failure(e.to_string()))?;
    for m in &reviewed.moves {
        let Some(mark) = m.mark else { continue };
        let at = middle(m.ply);
        let label = format!("{}{}", m.hole, mark.sign());
        chart
            .draw_series([EmptyElement::at(at)
                + Circle::new((0, 0), 5, mark_colour(mark).filled())
                + Text::new(label, (6, -16), ("sans-serif", 13).into_font().color(&INK))])
            .map_err(|e| failure(e.to_string()))?;
    }
    root.present().map_err(|e| failure(e.to_string()))?;
    Ok(())
}
