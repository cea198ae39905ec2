//! The first archive schema: sources, feeds, frontier, raw fetches, stories and their dedup records.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, big_pk_auto, blob_null, boolean, date, date_null, double,
    double_null, integer, integer_null, text, text_null, timestamp_with_time_zone,
    timestamp_with_time_zone_null,
};

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum MediaSources {
    Table,
    Id,
    Name,
    Homepage,
    CanonicalDomain,
    Timezone,
    CreatedAt,
    DiscoveredAt,
}

#[derive(DeriveIden)]
enum Feeds {
    Table,
    Id,
    SourceId,
    Url,
    UrlKey,
    Kind,
    Title,
    DiscoveredVia,
    Depth,
    UpdateHintSecs,
    Etag,
    LastModified,
    BodyHash,
    PollIntervalSecs,
    NextPollAt,
    FailureCount,
    LastStatus,
    LastPolledAt,
    LastSuccessAt,
    LastNewItemAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Frontier {
    Table,
    Id,
    Url,
    LossyUrl,
    Host,
    SourceId,
    FeedId,
    State,
    Attempts,
    NextAttemptAt,
    LeaseOwner,
    LeaseUntil,
    DiscoveredAt,
    HintPublishedAt,
    HintTitle,
    HintMeta,
    LastError,
}

#[derive(DeriveIden)]
enum Fetches {
    Table,
    Id,
    FrontierId,
    FeedId,
    RequestedUrl,
    FinalUrl,
    RedirectChain,
    Status,
    Headers,
    ContentType,
    Body,
    BodyEncoding,
    BodyLen,
    BodySha256,
    Error,
    StartedAt,
    FirstByteMs,
    TotalMs,
}

#[derive(DeriveIden)]
enum Stories {
    Table,
    Id,
    SourceId,
    FetchId,
    Url,
    LossyUrl,
    CanonicalUrl,
    Title,
    NormalizedTitle,
    Text,
    SearchableText,
    Language,
    Authors,
    PublishedAt,
    PublishedDay,
    Provenance,
    ExtractorVersion,
    CreatedAt,
}

#[derive(DeriveIden)]
enum RemovedSentences {
    Table,
    Id,
    StoryId,
    Position,
    Sentence,
    OwnerStoryId,
}

#[derive(DeriveIden)]
enum StoryUrls {
    Table,
    Id,
    StoryId,
    Url,
    LossyUrl,
    Kind,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Sentences {
    Table,
    Id,
    SourceId,
    WeekStart,
    Hash,
    FirstStoryId,
    FirstPublishedAt,
    Shared,
}

#[derive(DeriveIden)]
enum DuplicateLinks {
    Table,
    Id,
    StoryId,
    OfStoryId,
    Method,
    Score,
    Scores,
    Thresholds,
    CreatedAt,
}

#[derive(DeriveIden)]
enum StoryClusters {
    Table,
    Id,
    RepresentativeStoryId,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum ClusterMembers {
    Table,
    StoryId,
    ClusterId,
    Relation,
    Score,
}

/// A foreign key from `table.column` to `to.id`, deleting the row with its parent.
fn cascade(
    table: impl IntoIden + 'static,
    column: impl IntoIden + 'static,
    to: impl IntoIden + 'static,
    to_id: impl IntoIden + 'static,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .from(table, column)
        .to(to, to_id)
        .on_delete(ForeignKeyAction::Cascade)
        .take()
}

/// A foreign key from `table.column` to `to.id` that is cleared when the parent goes.
fn set_null(
    table: impl IntoIden + 'static,
    column: impl IntoIden + 'static,
    to: impl IntoIden + 'static,
    to_id: impl IntoIden + 'static,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .from(table, column)
        .to(to, to_id)
        .on_delete(ForeignKeyAction::SetNull)
        .take()
}

fn index(name: &str, table: impl IntoIden + 'static) -> IndexCreateStatement {
    Index::create().name(name).table(table).if_not_exists().take()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(MediaSources::Table)
                    .if_not_exists()
                    .col(big_pk_auto(MediaSources::Id))
                    .col(text(MediaSources::Name).unique_key())
                    .col(text(MediaSources::Homepage))
                    .col(text(MediaSources::CanonicalDomain))
                    .col(text(MediaSources::Timezone))
                    .col(timestamp_with_time_zone(MediaSources::CreatedAt))
                    .col(timestamp_with_time_zone_null(MediaSources::DiscoveredAt))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_media_sources_domain", MediaSources::Table)
                    .col(MediaSources::CanonicalDomain)
                    .take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Feeds::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Feeds::Id))
                    .col(big_integer(Feeds::SourceId))
                    .col(text(Feeds::Url))
                    .col(text(Feeds::UrlKey).unique_key())
                    .col(text(Feeds::Kind))
                    .col(text_null(Feeds::Title))
                    .col(text(Feeds::DiscoveredVia))
                    .col(integer(Feeds::Depth).default(0))
                    .col(big_integer_null(Feeds::UpdateHintSecs))
                    .col(text_null(Feeds::Etag))
                    .col(text_null(Feeds::LastModified))
                    .col(text_null(Feeds::BodyHash))
                    .col(big_integer(Feeds::PollIntervalSecs))
                    .col(timestamp_with_time_zone_null(Feeds::NextPollAt))
                    .col(double(Feeds::FailureCount))
                    .col(text_null(Feeds::LastStatus))
                    .col(timestamp_with_time_zone_null(Feeds::LastPolledAt))
                    .col(timestamp_with_time_zone_null(Feeds::LastSuccessAt))
                    .col(timestamp_with_time_zone_null(Feeds::LastNewItemAt))
                    .col(timestamp_with_time_zone(Feeds::CreatedAt))
                    .foreign_key(&mut cascade(
                        Feeds::Table,
                        Feeds::SourceId,
                        MediaSources::Table,
                        MediaSources::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(index("idx_feeds_next_poll", Feeds::Table).col(Feeds::NextPollAt).take())
            .await?;
        manager
            .create_index(index("idx_feeds_source", Feeds::Table).col(Feeds::SourceId).take())
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Frontier::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Frontier::Id))
                    .col(text(Frontier::Url))
                    .col(text(Frontier::LossyUrl).unique_key())
                    .col(text(Frontier::Host))
                    .col(big_integer(Frontier::SourceId))
                    .col(big_integer_null(Frontier::FeedId))
                    .col(text(Frontier::State))
                    .col(integer(Frontier::Attempts))
                    .col(timestamp_with_time_zone(Frontier::NextAttemptAt))
                    .col(text_null(Frontier::LeaseOwner))
                    .col(timestamp_with_time_zone_null(Frontier::LeaseUntil))
                    .col(timestamp_with_time_zone(Frontier::DiscoveredAt))
                    .col(timestamp_with_time_zone_null(Frontier::HintPublishedAt))
                    .col(text_null(Frontier::HintTitle))
                    .col(text_null(Frontier::HintMeta))
                    .col(text_null(Frontier::LastError))
                    .foreign_key(&mut cascade(
                        Frontier::Table,
                        Frontier::SourceId,
                        MediaSources::Table,
                        MediaSources::Id,
                    ))
                    .foreign_key(&mut set_null(
                        Frontier::Table,
                        Frontier::FeedId,
                        Feeds::Table,
                        Feeds::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_frontier_due", Frontier::Table)
                    .col(Frontier::State)
                    .col(Frontier::NextAttemptAt)
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_frontier_host", Frontier::Table)
                    .col(Frontier::Host)
                    .col(Frontier::NextAttemptAt)
                    .take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Fetches::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Fetches::Id))
                    .col(big_integer_null(Fetches::FrontierId))
                    .col(big_integer_null(Fetches::FeedId))
                    .col(text(Fetches::RequestedUrl))
                    .col(text(Fetches::FinalUrl))
                    .col(text(Fetches::RedirectChain))
                    .col(integer_null(Fetches::Status))
                    .col(text(Fetches::Headers))
                    .col(text_null(Fetches::ContentType))
                    .col(blob_null(Fetches::Body))
                    .col(text(Fetches::BodyEncoding))
                    .col(big_integer(Fetches::BodyLen))
                    .col(text_null(Fetches::BodySha256))
                    .col(text_null(Fetches::Error))
                    .col(timestamp_with_time_zone(Fetches::StartedAt))
                    .col(big_integer_null(Fetches::FirstByteMs))
                    .col(big_integer_null(Fetches::TotalMs))
                    .foreign_key(&mut set_null(
                        Fetches::Table,
                        Fetches::FrontierId,
                        Frontier::Table,
                        Frontier::Id,
                    ))
                    .foreign_key(&mut set_null(
                        Fetches::Table,
                        Fetches::FeedId,
                        Feeds::Table,
                        Feeds::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_fetches_frontier", Fetches::Table).col(Fetches::FrontierId).take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Stories::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Stories::Id))
                    .col(big_integer(Stories::SourceId))
                    .col(big_integer_null(Stories::FetchId))
                    .col(text(Stories::Url))
                    .col(text(Stories::LossyUrl).unique_key())
                    .col(text_null(Stories::CanonicalUrl))
                    .col(text_null(Stories::Title))
                    .col(text_null(Stories::NormalizedTitle))
                    .col(text(Stories::Text))
                    .col(text_null(Stories::SearchableText))
                    .col(text_null(Stories::Language))
                    .col(text(Stories::Authors))
                    .col(timestamp_with_time_zone_null(Stories::PublishedAt))
                    .col(date_null(Stories::PublishedDay))
                    .col(text(Stories::Provenance))
                    .col(text(Stories::ExtractorVersion))
                    .col(timestamp_with_time_zone(Stories::CreatedAt))
                    .foreign_key(&mut cascade(
                        Stories::Table,
                        Stories::SourceId,
                        MediaSources::Table,
                        MediaSources::Id,
                    ))
                    .foreign_key(&mut set_null(
                        Stories::Table,
                        Stories::FetchId,
                        Fetches::Table,
                        Fetches::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_stories_title_day", Stories::Table)
                    .col(Stories::SourceId)
                    .col(Stories::PublishedDay)
                    .col(Stories::NormalizedTitle)
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_stories_published", Stories::Table).col(Stories::PublishedAt).take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(StoryUrls::Table)
                    .if_not_exists()
                    .col(big_pk_auto(StoryUrls::Id))
                    .col(big_integer(StoryUrls::StoryId))
                    .col(text(StoryUrls::Url).unique_key())
                    .col(text(StoryUrls::LossyUrl))
                    .col(text(StoryUrls::Kind))
                    .col(timestamp_with_time_zone(StoryUrls::CreatedAt))
                    .foreign_key(&mut cascade(
                        StoryUrls::Table,
                        StoryUrls::StoryId,
                        Stories::Table,
                        Stories::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_story_urls_story", StoryUrls::Table).col(StoryUrls::StoryId).take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_story_urls_lossy", StoryUrls::Table).col(StoryUrls::LossyUrl).take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Sentences::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Sentences::Id))
                    .col(big_integer(Sentences::SourceId))
                    .col(date(Sentences::WeekStart))
                    .col(big_integer(Sentences::Hash))
                    .col(big_integer(Sentences::FirstStoryId))
                    .col(timestamp_with_time_zone(Sentences::FirstPublishedAt))
                    .col(boolean(Sentences::Shared).default(false))
                    .foreign_key(&mut cascade(
                        Sentences::Table,
                        Sentences::SourceId,
                        MediaSources::Table,
                        MediaSources::Id,
                    ))
                    .foreign_key(&mut cascade(
                        Sentences::Table,
                        Sentences::FirstStoryId,
                        Stories::Table,
                        Stories::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_sentences_key", Sentences::Table)
                    .col(Sentences::SourceId)
                    .col(Sentences::WeekStart)
                    .col(Sentences::Hash)
                    .unique()
                    .take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(RemovedSentences::Table)
                    .if_not_exists()
                    .col(big_pk_auto(RemovedSentences::Id))
                    .col(big_integer(RemovedSentences::StoryId))
                    .col(integer(RemovedSentences::Position))
                    .col(text(RemovedSentences::Sentence))
                    .col(big_integer(RemovedSentences::OwnerStoryId))
                    .foreign_key(&mut cascade(
                        RemovedSentences::Table,
                        RemovedSentences::StoryId,
                        Stories::Table,
                        Stories::Id,
                    ))
                    .foreign_key(&mut cascade(
                        RemovedSentences::Table,
                        RemovedSentences::OwnerStoryId,
                        Stories::Table,
                        Stories::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_removed_sentences_story", RemovedSentences::Table)
                    .col(RemovedSentences::StoryId)
                    .col(RemovedSentences::Position)
                    .take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(DuplicateLinks::Table)
                    .if_not_exists()
                    .col(big_pk_auto(DuplicateLinks::Id))
                    .col(big_integer(DuplicateLinks::StoryId))
                    .col(big_integer(DuplicateLinks::OfStoryId))
                    .col(text(DuplicateLinks::Method))
                    .col(double(DuplicateLinks::Score))
                    .col(text(DuplicateLinks::Scores))
                    .col(text(DuplicateLinks::Thresholds))
                    .col(timestamp_with_time_zone(DuplicateLinks::CreatedAt))
                    .foreign_key(&mut cascade(
                        DuplicateLinks::Table,
                        DuplicateLinks::StoryId,
                        Stories::Table,
                        Stories::Id,
                    ))
                    .foreign_key(&mut cascade(
                        DuplicateLinks::Table,
                        DuplicateLinks::OfStoryId,
                        Stories::Table,
                        Stories::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_duplicate_links_key", DuplicateLinks::Table)
                    .col(DuplicateLinks::StoryId)
                    .col(DuplicateLinks::OfStoryId)
                    .col(DuplicateLinks::Method)
                    .unique()
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_duplicate_links_of", DuplicateLinks::Table)
                    .col(DuplicateLinks::OfStoryId)
                    .take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(StoryClusters::Table)
                    .if_not_exists()
                    .col(big_pk_auto(StoryClusters::Id))
                    .col(big_integer(StoryClusters::RepresentativeStoryId))
                    .col(timestamp_with_time_zone(StoryClusters::CreatedAt))
                    .col(timestamp_with_time_zone(StoryClusters::UpdatedAt))
                    .foreign_key(&mut cascade(
                        StoryClusters::Table,
                        StoryClusters::RepresentativeStoryId,
                        Stories::Table,
                        Stories::Id,
                    ))
                    .take(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ClusterMembers::Table)
                    .if_not_exists()
                    .col(big_integer(ClusterMembers::StoryId).primary_key())
                    .col(big_integer(ClusterMembers::ClusterId))
                    .col(text_null(ClusterMembers::Relation))
                    .col(double_null(ClusterMembers::Score))
                    .foreign_key(&mut cascade(
                        ClusterMembers::Table,
                        ClusterMembers::StoryId,
                        Stories::Table,
                        Stories::Id,
                    ))
                    .foreign_key(&mut cascade(
                        ClusterMembers::Table,
                        ClusterMembers::ClusterId,
                        StoryClusters::Table,
                        StoryClusters::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                index("idx_cluster_members_cluster", ClusterMembers::Table)
                    .col(ClusterMembers::ClusterId)
                    .take(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ClusterMembers::Table.into_iden(),
            StoryClusters::Table.into_iden(),
            DuplicateLinks::Table.into_iden(),
            RemovedSentences::Table.into_iden(),
            Sentences::Table.into_iden(),
            StoryUrls::Table.into_iden(),
            Stories::Table.into_iden(),
            Fetches::Table.into_iden(),
            Frontier::Table.into_iden(),
            Feeds::Table.into_iden(),
            MediaSources::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).if_exists().take()).await?;
        }
        Ok(())
    }
}
