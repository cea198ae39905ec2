//! Which addresses the crawler may connect to, and how host names become addresses.
//!
//! By default only public unicast addresses are allowed: a feed must not steer the crawler into
//! an internal network, so loopback, private, link-local, shared (CGNAT), multicast, unspecified
//! and documentation addresses are refused, for names and literal IPs alike, at every redirect
//! hop. [`Resolver`] applies `--resolve HOST=IP` rules (curl's flag; `*.domain=IP` also matches
//! the domain and every name under it) before the system resolver.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;

pub use crate::error::{BadResolveRule, Refused};

/// A `--resolve` rule: this host (or every host under a domain) is at this address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolveRule {
    host: String,
    wildcard: bool,
    ip: IpAddr,
}

impl FromStr for ResolveRule {
    type Err = BadResolveRule;

    fn from_str(value: &str) -> Result<ResolveRule, BadResolveRule> {
        let bad = || BadResolveRule { value: value.to_owned() };
        let (host, ip) = value.split_once('=').ok_or_else(bad)?;
        let ip: IpAddr =
            ip.trim().trim_start_matches('[').trim_end_matches(']').parse().map_err(|_| bad())?;
        let host = host.trim().to_ascii_lowercase();
        let (host, wildcard) = match host.strip_prefix("*.") {
            Some(domain) => (domain.to_owned(), true),
            None => (host, false),
        };
        if host.is_empty() || host.contains(['/', ':', '*', ' ']) {
            return Err(bad());
        }
        Ok(ResolveRule { host, wildcard, ip })
    }
}

impl ResolveRule {
    fn matches(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.');
        host.eq_ignore_ascii_case(&self.host)
            || (self.wildcard
                && host.len() > self.host.len()
                && host.to_ascii_lowercase().ends_with(&format!(".{}", self.host)))
    }
}

/// Whether the crawler may connect to `ip` when private addresses are not allowed.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (18..20).contains(&b))
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || first == 0x2001 && ip.segments()[1] == 0x0db8)
}

/// The crawler's resolver: `--resolve` rules, then the system's, then the address policy.
#[derive(Debug, Clone, Default)]
pub struct Resolver {
    rules: Arc<Vec<ResolveRule>>,
    allow_private: bool,
}

impl Resolver {
    /// A resolver with these rules and policy.
    pub fn new(rules: Vec<ResolveRule>, allow_private: bool) -> Resolver {
        Resolver { rules: Arc::new(rules), allow_private }
    }

    /// Whether connecting to `ip` is allowed.
    pub fn allows(&self, ip: IpAddr) -> bool {
        self.allow_private || is_public(ip)
    }

    /// The addresses of `host`, after the rules and the policy.
    pub async fn lookup(
        &self,
        host: &str,
    ) -> Result<Vec<SocketAddr>, Box<dyn std::error::Error + Send + Sync>> {
        let found: Vec<SocketAddr> = match self.rules.iter().find(|rule| rule.matches(host)) {
            Some(rule) => vec![SocketAddr::new(rule.ip, 0)],
            None => tokio::net::lookup_host((host, 0)).await?.collect(),
        };
        let allowed: Vec<SocketAddr> =
            found.iter().copied().filter(|addr| self.allows(addr.ip())).collect();
        if allowed.is_empty() && !found.is_empty() {
            let addresses =
                found.iter().map(|addr| addr.ip().to_string()).collect::<Vec<_>>().join(", ");
            return Err(Box::new(Refused { host: host.to_owned(), addresses }));
        }
        Ok(allowed)
    }
}

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let resolver = self.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs = resolver.lookup(&host).await?;
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_policy() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.1.1",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "2001:db8::1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    #[test]
    fn resolve_rules() {
        let exact: ResolveRule = "News.Example=127.0.0.1".parse().unwrap();
        assert!(exact.matches("news.example") && !exact.matches("a.news.example"));
        let wildcard: ResolveRule = "*.test=[::1]".parse().unwrap();
        assert!(
            wildcard.matches("a.test") && wildcard.matches("b.a.test") && wildcard.matches("test")
        );
        assert!(!wildcard.matches("atest"));
        for bad in ["nohost", "=1.2.3.4", "x=notanip", "a/b=1.2.3.4", "*=1.2.3.4"] {
            assert!(bad.parse::<ResolveRule>().is_err(), "{bad}");
        }
    }

    #[tokio::test]
    async fn refuses_private_resolutions_unless_allowed() {
        let rules = vec!["*.example=127.0.0.1".parse().unwrap()];
        let strict = Resolver::new(rules.clone(), false);
        let err = strict.lookup("www.example").await.unwrap_err();
        assert!(err.downcast_ref::<Refused>().is_some(), "{err}");
        let lenient = Resolver::new(rules, true);
        assert_eq!(
            lenient.lookup("www.example").await.unwrap(),
            vec!["127.0.0.1:0".parse().unwrap()]
        );
    }
}
