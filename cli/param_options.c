/* The options that set training parameters, from the parameter table (km_param_describe): one loop
 * parses them for every subcommand, and their help is generated from the same rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Every option name of every parameter, split from the rows' "|"-separated lists (built once). */
typedef struct option_name {
    char text[32];
    km_param id;
} option_name;

static option_name names[256];
static size_t n_names;

static void split_option_names(void)
{
    if (n_names)
        return;
    km_param id;
    for (size_t k = 0; (id = km_param_at(k)); k++) {
        km_param_info info = KM_PARAM_INFO_INIT;
        if (km_param_describe(id, &info) || !info.options)
            continue;
        for (const char *s = info.options; *s && n_names < sizeof names / sizeof *names;) {
            size_t len = strcspn(s, "|");
            if (len < sizeof names[0].text) {
                memcpy(names[n_names].text, s, len);
                names[n_names].text[len] = '\0';
                names[n_names++].id = id;
            }
            s += len + (s[len] == '|');
        }
    }
}

static int accepted(const km_param *ids, km_param id)
{
    if (!ids)
        return 1;
    for (; *ids; ids++)
        if (*ids == id)
            return 1;
    return 0;
}

int cli_param_option(cli_args *args, km_params *params, const km_param *ids, km_param *id)
{
    split_option_names();
    const option_name *match = NULL;
    for (size_t k = 0; k < n_names; k++)
        if (accepted(ids, names[k].id) && cli_args_is(args, names[k].text, NULL))
            match = &names[k];
    if (!match)
        return 0;
    *id = match->id;
    km_param_info info = KM_PARAM_INFO_INIT;
    km_param_describe(match->id, &info);
    km_status st;
    if (!info.value_name) {   /* a switch */
        st = info.flags & KM_PARAM_INTEGER ? km_params_set_int(params, match->id, (int64_t)info.switch_value)
                                           : km_params_set_double(params, match->id, info.switch_value);
    } else {
        const char *text = cli_args_value(args);
        if (!text)
            return -1;
        char as[64];
        snprintf(as, sizeof as, "option %s", match->text);
        st = km_params_set_text_as(params, match->id, text, as, 0);
    }
    return st ? (cli_fail(args->cmd, st), -1) : 1;
}

/* The text of a default for the help: an enumeration's name, or the number. */
static void default_text(const km_param_info *info, char *buf, size_t size)
{
    const char *name = info->enumeration ? km_enum_name(info->enumeration, (int)info->default_value) : NULL;
    if (name)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "%g", info->default_value);
}

void cli_help_paragraph(FILE *out, const char *head, const char *text)
{
    enum { INDENT = 21, WIDTH = 100 };
    int column = fprintf(out, "  %s", head);
    if (column >= INDENT) {
        fputc('\n', out);
        column = 0;
    }
    fprintf(out, "%*s", INDENT - column, "");
    column = INDENT;
    while (*text) {
        size_t word = strcspn(text, " ");
        if (column > INDENT && column + 1 + (int)word > WIDTH) {
            fprintf(out, "\n%*s", INDENT, "");
            column = INDENT;
        } else if (column > INDENT) {
            fputc(' ', out);
            column++;
        }
        fwrite(text, 1, word, out);
        column += (int)word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

void cli_param_help(FILE *out, km_param id, const char *prefix)
{
    km_param_info info = KM_PARAM_INFO_INIT;
    if (km_param_describe(id, &info) || !info.options)
        return;
    /* the preferred option and its value in the option column, the aliases after the text */
    size_t preferred = strcspn(info.options, "|");
    char head[64], aliases[128] = "", text[1536], value[32] = "";
    snprintf(head, sizeof head, "%.*s%s%s", (int)preferred, info.options, info.value_name ? " " : "",
             info.value_name ? info.value_name : "");
    if (info.options[preferred]) {
        snprintf(aliases, sizeof aliases, "; also %s", info.options + preferred + 1);
        for (char *bar = strchr(aliases, '|'); bar; bar = strchr(bar, '|'))
            *bar = ',';
    }
    if (info.value_name && !(info.flags & KM_PARAM_AUTOMATIC) && !strstr(info.help, "(default"))
        default_text(&info, value, sizeof value);
    snprintf(text, sizeof text, "%s%s%s%s%s%s", prefix ? prefix : "", info.help, value[0] ? " (default " : "", value,
             value[0] ? ")" : "", aliases);
    cli_help_paragraph(out, head, text);
}

int cli_param_value_option(cli_args *args)
{
    split_option_names();
    for (size_t k = 0; k < n_names; k++)
        if (cli_args_is(args, names[k].text, NULL)) {
            km_param_info info = KM_PARAM_INFO_INIT;
            return km_param_describe(names[k].id, &info) == KM_OK && info.value_name != NULL;
        }
    return 0;
}
