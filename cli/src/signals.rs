//! Stopping on SIGINT or SIGTERM: the crawl finishes the work in flight, the server its requests.

use tokio::sync::watch;

/// Asks `stop` to turn true on SIGINT or SIGTERM; a second signal ends the process at once.
pub(crate) fn stop_on_signals() -> watch::Receiver<bool> {
    let (stop, stopped) = watch::channel(false);
    tokio::spawn(async move {
        let mut signals = 0;
        loop {
            wait_for_signal().await;
            signals += 1;
            if signals > 1 {
                #[allow(clippy::print_stderr)]
                {
                    eprintln!("error: interrupted again; stopping now");
                }
                std::process::exit(130);
            }
            tracing::warn!(
                "stopping: finishing the work in flight (interrupt again to stop at once)"
            );
            let _ = stop.send(true);
        }
    });
    stopped
}

/// Returns at the first SIGINT or SIGTERM.
pub(crate) async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
