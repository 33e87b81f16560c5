//! `--eval`: the evaluation named by its ID or, as the Nomad CLI allows, an
//! unambiguous prefix of it.

use super::error::ReplayError;
use super::options::Options;
use crate::model::Evaluation;

/// The evaluation whose ID is `id`, else the only one whose ID starts with
/// it. It must be of `--job` (and `--namespace`) when those are given: the
/// evaluation picks the job, so a different `--job` would be dropped silently.
pub(super) fn find<'s>(
    evals: &'s [Evaluation],
    id: &str,
    options: &Options,
) -> Result<&'s Evaluation, ReplayError> {
    let eval = match evals.iter().find(|e| e.id == id) {
        Some(e) => e,
        None => {
            let mut matches: Vec<&Evaluation> = evals
                .iter()
                .filter(|e| e.id.with_str(|t| t.starts_with(id)))
                .collect();
            matches.sort_by(|a, b| a.id.cmp(&b.id));
            match matches.as_slice() {
                [one] => *one,
                [] => {
                    return Err(ReplayError::EvalNotFound {
                        eval: id.to_string(),
                        candidates: described(evals.iter()),
                    });
                }
                many => {
                    return Err(ReplayError::EvalAmbiguous {
                        eval: id.to_string(),
                        candidates: described(many.iter().copied()),
                    });
                }
            }
        }
    };
    let other_job = options.job.as_deref().is_some_and(|j| j != eval.job_id);
    let other_ns = options
        .namespace
        .as_deref()
        .is_some_and(|n| n != eval.namespace);
    if other_job || other_ns {
        return Err(ReplayError::EvalNotOfJob {
            eval: eval.id.to_string(),
            eval_job: format!("{}/{}", eval.namespace, eval.job_id),
            job: match (&options.namespace, &options.job) {
                (Some(ns), Some(j)) => format!("{ns}/{j}"),
                (None, Some(j)) => j.clone(),
                (Some(ns), None) => format!("{ns}/*"),
                (None, None) => String::new(),
            },
        });
    }
    Ok(eval)
}

/// `ID (namespace/job)` of each, sorted, at most ten and a count.
fn described<'s>(evals: impl Iterator<Item = &'s Evaluation>) -> Vec<String> {
    const SHOWN: usize = 10;
    let mut all: Vec<String> = evals
        .map(|e| format!("{} ({}/{})", e.id, e.namespace, e.job_id))
        .collect();
    all.sort();
    if all.len() > SHOWN {
        let more = all.len() - SHOWN;
        all.truncate(SHOWN);
        all.push(format!("and {more} more"));
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(id: &str, job: &str) -> Evaluation {
        Evaluation {
            id: id.into(),
            namespace: "default".into(),
            job_id: job.into(),
            ..Evaluation::default()
        }
    }

    fn evals() -> Vec<Evaluation> {
        vec![
            eval("5f2c1a9b", "web"),
            eval("5f2d7e00", "web"),
            eval("c0ffee00", "cache"),
        ]
    }

    #[test]
    fn a_unique_prefix_finds_its_evaluation() {
        let all = evals();
        let found = find(&all, "5f2c", &Options::default()).unwrap();
        assert_eq!(found.id, "5f2c1a9b");
        assert_eq!(
            find(&all, "c0ffee00", &Options::default()).unwrap().job_id,
            "cache"
        );
    }

    #[test]
    fn an_ambiguous_or_unknown_prefix_lists_the_candidates() {
        let all = evals();
        assert_eq!(
            find(&all, "5f2", &Options::default())
                .unwrap_err()
                .to_string(),
            "\"5f2\" matches 2 evaluations: 5f2c1a9b (default/web), 5f2d7e00 (default/web); give more of the ID"
        );
        assert_eq!(
            find(&all, "ab", &Options::default())
                .unwrap_err()
                .to_string(),
            "no evaluation ID starts with \"ab\"; the snapshot's Evals: 5f2c1a9b (default/web), \
             5f2d7e00 (default/web), c0ffee00 (default/cache)"
        );
        assert_eq!(
            find(&[], "ab", &Options::default())
                .unwrap_err()
                .to_string(),
            "no evaluation \"ab\": the snapshot has no Evals"
        );
    }

    #[test]
    fn the_evaluation_must_be_of_the_job_asked_for() {
        let all = evals();
        let options = Options {
            job: Some("cache".to_string()),
            ..Options::default()
        };
        assert_eq!(
            find(&all, "5f2c", &options).unwrap_err().to_string(),
            "evaluation 5f2c1a9b is of job \"default/web\", not of --job \"cache\"; drop --job, or pick an \
             evaluation of that job"
        );
        assert!(find(&all, "c0ff", &options).is_ok());
    }
}
