//! `morgue collections add|list|show`: named groups of sources, which queries
//! (`collection:NAME`), `--collection` and counts filter by.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::{Result, bail};
use store::Archive;

use crate::args::CollectionsCommand;
use crate::sources::write_list;

/// Runs one `collections` subcommand.
pub(crate) async fn run(
    archive: &Archive,
    command: CollectionsCommand,
    out: &mut impl Write,
) -> Result<()> {
    match command {
        CollectionsCommand::Add { name, sources } => {
            let name = name.trim();
            if name.is_empty() {
                bail!("the collection name is empty");
            }
            let mut ids = Vec::new();
            for source in &sources {
                match store::sources::by_name(archive, source).await? {
                    Some(found) => ids.push(found.id),
                    None => bail!("no source named {source:?} (see `morgue sources list`)"),
                }
            }
            let collection = store::collections::add(archive, name).await?;
            store::collections::add_sources(archive, collection.id, &ids).await?;
            let now = store::collections::by_name(archive, name).await?.unwrap_or(collection);
            writeln!(
                out,
                "collection {}: {} ({} sources)",
                now.id,
                now.name,
                now.source_ids.len()
            )?;
        }
        CollectionsCommand::List { format } => {
            let rows: Vec<[String; 3]> = store::collections::list(archive)
                .await?
                .into_iter()
                .map(|c| [c.id.to_string(), c.name, c.source_ids.len().to_string()])
                .collect();
            write_list(out, format, &["id", "name", "sources"], &rows)?;
        }
        CollectionsCommand::Show { name, format } => {
            let Some(collection) = store::collections::by_name(archive, &name).await? else {
                bail!("no collection named {name:?} (see `morgue collections list`)");
            };
            let names: BTreeMap<i64, store::sources::Source> = store::sources::list(archive)
                .await?
                .into_iter()
                .map(|source| (source.id, source))
                .collect();
            let rows: Vec<[String; 3]> = collection
                .source_ids
                .iter()
                .filter_map(|id| names.get(id))
                .map(|s| [s.id.to_string(), s.name.clone(), s.homepage.clone()])
                .collect();
            write_list(out, format, &["id", "name", "homepage"], &rows)?;
        }
    }
    Ok(())
}
