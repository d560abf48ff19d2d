/// The Lua scripts the Redis session store runs: each reads and writes one session's keys in one
/// atomic step, so an owner check and the write it guards cannot be split by another node's
/// takeover. Keys are named by the caller (`RedisSessionStore`); a script that names a key it was not
/// given needs a standalone Redis, not Redis Cluster.
enum RedisScripts {
    /// Appends lines to a session's input if the caller owns it, creating the session with its
    /// first lines. Numbered lines make a batch sent again (its reply was lost) append only what
    /// the store lacks.
    ///
    /// KEYS: session hash, input list, watch index. ARGV: owner, the first line's number, the
    /// control token and watch token ('' unless creating), the keys' lifetime in ms, the lines.
    /// Returns the lines the store holds; errors `LOST …` (another owner, or the session is gone)
    /// and `GAP …` (lines are missing before these).
    static let append = """
        local owner = redis.call('HGET', KEYS[1], 'owner')
        if not owner then
          if ARGV[3] == '' then return redis.error_reply('LOST the session is gone') end
          redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'token', ARGV[3], 'watch', ARGV[4], 'watchkey', KEYS[3], 'lines', 0, 'dropped', 0)
          redis.call('SET', KEYS[3], KEYS[1])
        elseif owner ~= ARGV[1] then
          return redis.error_reply('LOST taken over by ' .. owner)
        end
        local have = tonumber(redis.call('HGET', KEYS[1], 'lines'))
        local first = tonumber(ARGV[2])
        if first > have + 1 then return redis.error_reply('GAP the store holds ' .. have .. ' lines') end
        local from = 6 + have + 1 - first
        if from <= #ARGV then
          redis.call('RPUSH', KEYS[2], unpack(ARGV, from))
          have = have + #ARGV - from + 1
          redis.call('HSET', KEYS[1], 'lines', have)
        end
        redis.call('PEXPIRE', KEYS[1], ARGV[5])
        redis.call('PEXPIRE', KEYS[2], ARGV[5])
        redis.call('PEXPIRE', KEYS[3], ARGV[5])
        return have
        """

    /// Replaces the head of a session's input with a checkpoint if the caller owns it: the list
    /// becomes the checkpoint's lines followed by the lines after line `through`. Line numbers
    /// are absolute, as `append`'s are: the hash's `lines` stays the count of lines ever
    /// appended, and `dropped` becomes `through`, so the list is the checkpoint's lines followed
    /// by lines `dropped + 1 ... lines`. A checkpoint through a line already dropped changes
    /// nothing (the same round sent again, its reply lost).
    ///
    /// KEYS: session hash, input list, watch index. ARGV: owner, the last line replaced, the
    /// keys' lifetime in ms, the checkpoint's lines. Returns the lines the store holds; errors
    /// `LOST …` as `append`'s, and `GAP …` (line `through` is not in the store).
    static let checkpoint = """
        local owner = redis.call('HGET', KEYS[1], 'owner')
        if not owner then return redis.error_reply('LOST the session is gone') end
        if owner ~= ARGV[1] then return redis.error_reply('LOST taken over by ' .. owner) end
        local have = tonumber(redis.call('HGET', KEYS[1], 'lines'))
        local through = tonumber(ARGV[2])
        if through > have then return redis.error_reply('GAP the store holds ' .. have .. ' lines') end
        if through > tonumber(redis.call('HGET', KEYS[1], 'dropped') or 0) then
          if have > through then
            redis.call('LTRIM', KEYS[2], through - have, -1)
          else
            redis.call('DEL', KEYS[2])
          end
          for index = #ARGV, 4, -1 do redis.call('LPUSH', KEYS[2], ARGV[index]) end
          redis.call('HSET', KEYS[1], 'dropped', through)
        end
        redis.call('PEXPIRE', KEYS[1], ARGV[3])
        redis.call('PEXPIRE', KEYS[2], ARGV[3])
        redis.call('PEXPIRE', KEYS[3], ARGV[3])
        return have
        """

    /// Reads a session's stored lines through line `through` if the caller owns it: the list less
    /// the lines after that one. Run with EVAL by a checkpoint's worker, on a connection of its own.
    ///
    /// KEYS: session hash, input list. ARGV: owner, the last line to read (absolute, as
    /// `append`'s). Returns the lines; errors `LOST …` as `append`'s, and `GAP …` (line `through`
    /// is not in the store, or a checkpoint after it replaced it).
    static let read = """
        local owner = redis.call('HGET', KEYS[1], 'owner')
        if not owner then return redis.error_reply('LOST the session is gone') end
        if owner ~= ARGV[1] then return redis.error_reply('LOST taken over by ' .. owner) end
        local fields = redis.call('HMGET', KEYS[1], 'lines', 'dropped')
        local have, through = tonumber(fields[1]), tonumber(ARGV[2])
        if through > have or through < tonumber(fields[2] or 0) then
          return redis.error_reply('GAP the store holds lines ' .. (fields[2] or 0) .. ' to ' .. have)
        end
        return redis.call('LRANGE', KEYS[2], 0, through - have - 1)
        """

    /// Makes the caller the owner of the session whose control token's key, or watch token's key,
    /// is given, tells the old owner (a list it reads), and returns the session.
    ///
    /// KEYS: the session hash for the token, the watch index for the token. ARGV: the new owner,
    /// the keys' prefix. Returns nil (no such session), error `MINE` (the caller owns it), or
    /// [key, control token, watch token, lines held, [lines]]: lines held is the hash's `lines`,
    /// the number the caller's appends go on from, which the list is shorter than after a
    /// checkpoint.
    static let claim = """
        local session = KEYS[1]
        if redis.call('EXISTS', session) == 0 then
          session = redis.call('GET', KEYS[2])
          if not session or redis.call('EXISTS', session) == 0 then return false end
        end
        local old = redis.call('HGET', session, 'owner')
        if old == ARGV[1] then return redis.error_reply('MINE') end
        redis.call('HSET', session, 'owner', ARGV[1])
        local key = string.sub(session, #ARGV[2] + #'session:' + 1)
        local lost = ARGV[2] .. 'lost:' .. old
        redis.call('RPUSH', lost, key .. '-' .. old)
        redis.call('PEXPIRE', lost, 600000)
        local fields = redis.call('HMGET', session, 'token', 'watch', 'lines')
        return {key, fields[1], fields[2], fields[3], redis.call('LRANGE', ARGV[2] .. 'input:' .. key, 0, -1)}
        """

    /// Takes the names of the caller's sessions that others took over (the list `claim` writes).
    ///
    /// KEYS: the caller's list.
    static let takeLost = """
        local names = redis.call('LRANGE', KEYS[1], 0, -1)
        if #names > 0 then redis.call('DEL', KEYS[1]) end
        return names
        """

    /// Deletes a session that ended, if the caller owns it. KEYS: session hash, input list. ARGV: owner.
    static let end = """
        if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
        local watchkey = redis.call('HGET', KEYS[1], 'watchkey')
        if watchkey then redis.call('DEL', watchkey) end
        redis.call('DEL', KEYS[1], KEYS[2])
        return 1
        """

    /// Keeps an idle session's keys from expiring, if the caller owns it.
    /// KEYS: session hash, input list. ARGV: owner, lifetime in ms.
    static let touch = """
        if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
        local watchkey = redis.call('HGET', KEYS[1], 'watchkey')
        if watchkey then redis.call('PEXPIRE', watchkey, ARGV[2]) end
        redis.call('PEXPIRE', KEYS[1], ARGV[2])
        redis.call('PEXPIRE', KEYS[2], ARGV[2])
        return 1
        """

    /// Every script, for `SCRIPT LOAD` on each new connection.
    static let all = [append, checkpoint, claim, takeLost, end, touch]
}
