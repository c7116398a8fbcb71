//! The search threads, started once and kept between searches.
//!
//! A [`Pool`] holds long-lived threads with a large stack (deep searches of games with long move
//! lists must not overflow). Each thread runs the tasks sent to it, one after the other. The
//! front end sizes the pool when `Threads` is set (and the table when `Hash` is), so a `go` only
//! hands tasks to threads that already exist; a search asking for more threads than the pool has
//! starts the missing ones itself (tools such as `bench` that never set `Threads`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread::JoinHandle;

use crossbeam_channel::{unbounded, Sender};

/// Stack reserved for every search thread.
pub(crate) const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Work for one pool thread.
pub(crate) type Task = Box<dyn FnOnce() + Send + 'static>;

/// One long-lived thread and the way to hand it work.
struct PoolThread {
    tasks: Sender<Task>,
    handle: JoinHandle<()>,
}

/// Long-lived search threads (see the module documentation).
#[derive(Default)]
pub(crate) struct Pool {
    threads: Vec<PoolThread>,
}

impl Pool {
    /// A pool with `n` threads (fewer if the system refuses to start some).
    pub fn new(n: usize) -> Self {
        let mut pool = Pool::default();
        pool.resize(n);
        pool
    }

    /// Threads running now.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// Starts or ends threads until `n` run (fewer if the system refuses to start more); returns
    /// how many run.
    pub fn resize(&mut self, n: usize) -> usize {
        while self.threads.len() > n {
            if let Some(t) = self.threads.pop() {
                t.finish();
            }
        }
        while self.threads.len() < n {
            let (tasks, inbox) = unbounded::<Task>();
            let spawned = std::thread::Builder::new()
                .name(format!("search-{}", self.threads.len()))
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    while let Ok(task) = inbox.recv() {
                        // A task that panics drops what it would have sent; its caller sees
                        // that, and the thread stays for the next task.
                        let _ = catch_unwind(AssertUnwindSafe(task));
                    }
                });
            match spawned {
                Ok(handle) => self.threads.push(PoolThread { tasks, handle }),
                Err(_) => break,
            }
        }
        self.threads.len()
    }

    /// Hands `task` to thread `index`; false (the task dropped unrun) when there is no such
    /// thread.
    pub fn run(&self, index: usize, task: Task) -> bool {
        self.threads
            .get(index)
            .is_some_and(|t| t.tasks.send(task).is_ok())
    }
}

impl PoolThread {
    /// Ends the thread after its current task.
    fn finish(self) {
        let PoolThread { tasks, handle } = self;
        drop(tasks);
        let _ = handle.join();
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for t in self.threads.drain(..) {
            t.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn threads_persist_between_tasks_and_resize() {
        let mut pool = Pool::new(2);
        assert_eq!(pool.len(), 2);
        let (tx, rx) = mpsc::channel();
        for round in 0..3 {
            for i in 0..2 {
                let tx = tx.clone();
                assert!(pool.run(
                    i,
                    Box::new(move || {
                        let _ = tx.send((round, i, std::thread::current().id()));
                    })
                ));
            }
        }
        let mut ids: Vec<_> = (0..6).map(|_| rx.recv().unwrap()).collect();
        ids.sort_by_key(|&(round, i, _)| (i, round));
        // Each index ran its three tasks on one and the same thread, and the two differ.
        assert!(ids[..3].iter().all(|t| t.2 == ids[0].2));
        assert!(ids[3..].iter().all(|t| t.2 == ids[3].2));
        assert_ne!(ids[0].2, ids[3].2);
        assert_eq!(pool.resize(1), 1);
        assert!(!pool.run(1, Box::new(|| {})));
        assert_eq!(pool.resize(3), 3);
        assert!(pool.run(2, Box::new(|| {})));
    }

    #[test]
    fn a_panicking_task_leaves_the_thread_working() {
        let pool = Pool::new(1);
        let (tx, rx) = mpsc::channel::<u32>();
        let first = tx.clone();
        assert!(pool.run(
            0,
            Box::new(move || {
                let _keep = first;
                panic!("test panic in a pool task");
            })
        ));
        assert!(pool.run(
            0,
            Box::new(move || {
                let _ = tx.send(7);
            })
        ));
        assert_eq!(rx.recv().ok(), Some(7));
    }
}
